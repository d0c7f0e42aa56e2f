import Architecture

/// A dish in the planner: what it's called, how many it feeds, what to buy for it.
struct Recipe: Equatable, Codable, Identifiable {
  let id: UUID
  var name: String
  var servings: Int
  var ingredients: [String]
}
