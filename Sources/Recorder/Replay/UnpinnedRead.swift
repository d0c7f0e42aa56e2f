/// A dependency of the app's that a replay read with nothing pinning it: the trace cannot hold
/// its value, so the replaying machine's default answered.
///
/// A replay notes the first step to read each such key, while decoding the step's state or
/// reducing it; ``ReplayReport/unpinnedReads`` lists them and the verdict names them with the
/// line that pins them.
package struct UnpinnedRead: Sendable, Equatable, Codable {
  /// The first step that read the key.
  package var step: Int
  /// The key's type, in full: `SyncUps.DataManager`.
  package var key: String
  /// The `DependencyValues` property it was read through, when the runtime could name it.
  package var property: String?

  /// How the reducer names the dependency: `\.dataManager`, else `SyncUps.DataManager.self`.
  package var name: String {
    property.map { "\\.\($0)" } ?? "\(key).self"
  }

  /// The statement that pins it in a `withDependencies` closure.
  package var pin: String {
    property.map { "$0.\($0) = …" } ?? "$0[\(key).self] = …"
  }

  /// The sentence a verdict says: the read, and the host API that pins it.
  package func sentence(reducer: String) -> String {
    "step \(step) read \(name) (\(key)), which the trace cannot replay; pin it with "
      + "ReplayTarget(\(reducer)(), withDependencies: { \(pin) })"
  }

  /// Keeps the earliest step for each key of `reads` and `others`, sorted by step and key.
  static func merged(_ reads: [UnpinnedRead], _ others: [UnpinnedRead]) -> [UnpinnedRead] {
    var first: [String: UnpinnedRead] = [:]
    for read in reads + others where first[read.key].map({ read.step < $0.step }) ?? true {
      first[read.key] = read
    }
    return first.values.sorted { ($0.step, $0.key) < ($1.step, $1.key) }
  }
}
