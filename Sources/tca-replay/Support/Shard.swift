/// One of `count` parts of a list of traces, for CI machines that share the work: `--shard 2/3`.
///
/// The traces are sorted by path and dealt round-robin, so the parts are disjoint, together
/// cover the list, and are the same on every machine whatever order the paths were given in.
struct Shard: Sendable, Equatable {
  /// Which part, from 1.
  var index: Int
  /// How many parts.
  var count: Int

  /// The paths of `paths` in this part, in their given order.
  func select(_ paths: [String]) -> [String] {
    let mine = Set(
      paths.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated()
        .filter { $0.offset % count == index - 1 }.map(\.element))
    return paths.filter { mine.contains($0) }
  }
}

extension Option where Value == Shard {
  /// An option whose value is `i/n`, 1 ≤ i ≤ n.
  static func shard(_ name: String, value: String, help: String) -> Self {
    Self(name, value: value, help: help) { text, name throws(UsageError) in
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
        (1...count).contains(index)
      else {
        throw UsageError(
          message: "'\(name)' takes i/n, a part i from 1 to n of n, like 2/3, not '\(text)'")
      }
      return Shard(index: index, count: count)
    }
  }
}
