extension TodosFeature {
  /// Which todos the list shows. Filtering only changes what is shown, never the todos.
  public enum Filter: String, CaseIterable, Codable, Sendable {
    case all
    case active
    case completed
  }
}
