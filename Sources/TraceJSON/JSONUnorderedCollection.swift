/// Marks the standard collections whose iteration order changes from run to run.
///
/// Their hashing is seeded per process, so the encoder sorts their output to stay
/// deterministic.
package protocol JSONUnorderedCollection {}

/// Marks `Dictionary`: encoded as an object (sorted by key) or as alternating key and value
/// elements (sorted by encoded key).
package protocol JSONDictionaryMarker: JSONUnorderedCollection {}

extension Set: JSONUnorderedCollection {}

extension Dictionary: JSONDictionaryMarker {}
