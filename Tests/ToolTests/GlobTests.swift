import Testing

@testable import tca_replay

/// `find`'s and `log --action`'s globs (`Rendering/Glob.swift`): the same verdicts as a plain
/// recursive matcher, and work that does not grow with the stars.
@Suite("Globs")
struct GlobTests {
  /// The definition, by recursion: slow, obviously right.
  static func reference(_ pattern: Substring, _ label: Substring) -> Bool {
    guard let first = pattern.first else { return label.isEmpty }
    if first == "*" {
      return reference(pattern.dropFirst(), label)
        || (!label.isEmpty && reference(pattern, label.dropFirst()))
    }
    guard let character = label.first, first == "?" || first == character else { return false }
    return reference(pattern.dropFirst(), label.dropFirst())
  }

  @Test("every pattern of *, ? and two letters gives the recursive matcher's verdict")
  func sameVerdicts() {
    let alphabet: [Character] = ["a", "b", "*", "?"]
    var patterns: [String] = [""]
    for _ in 0..<4 { patterns += patterns.flatMap { p in alphabet.map { p + String($0) } } }
    // The patterns' own letters, and a few labels with characters that are not ASCII.
    let labels = Set(patterns.map { $0.filter { $0 == "a" || $0 == "b" } })
      .union(["ab", "ba", "aab", "abab", "bbb", "é", "aé", "aéb"])
    for pattern in Set(patterns) where pattern.contains("*") || pattern.contains("?") {
      let glob = LabelPattern(text: pattern)
      for label in labels {
        #expect(
          glob.matches(label) == Self.reference(pattern[...], label[...]),
          "'\(pattern)' on '\(label)'")
      }
    }
  }

  @Test("sixteen stars on a label of a million bytes compare a handful of bytes one by one")
  func linearWork() {
    let label = ".pasted(\"" + String(repeating: "ab", count: 500_000) + "\")"
    let pattern = LabelPattern(text: String(repeating: "*a*b", count: 8) + "*c")
    var steps = 0
    #expect(!pattern.matches(label, steps: &steps))
    // Matching element by element retries the piece after the last star at every byte.
    #expect(steps < 100, "\(steps) bytes compared one by one")
    // A `?` piece is compared byte by byte, once per place: the label's length, not more.
    let asked = LabelPattern(text: "*a?" + String(repeating: "*a?", count: 15) + "*c?")
    steps = 0
    #expect(!asked.matches(label, steps: &steps))
    #expect(steps < 4 * label.utf8.count, "\(steps) bytes compared one by one")
  }
}
