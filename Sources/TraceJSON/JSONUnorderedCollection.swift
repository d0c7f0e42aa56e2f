/// Marks the standard collections whose iteration order changes from run to run.
///
/// Their hashing is seeded per process, and their order changes as they grow, so the encoder
/// sorts their output to stay deterministic.
package protocol JSONUnorderedCollection {
  /// Whether it is a dictionary: encoded as an object (sorted by key) or as alternating key and
  /// value elements (sorted by encoded key), not as elements sorted one by one.
  static var isJSONDictionary: Bool { get }
}

extension Set: JSONUnorderedCollection {
  package static var isJSONDictionary: Bool { false }
}

extension Dictionary: JSONUnorderedCollection {
  package static var isJSONDictionary: Bool { true }
}
