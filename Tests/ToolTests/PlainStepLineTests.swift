import Recorder
import Testing

@testable import tca_replay

/// `log`'s byte-level line writer gives exactly the line the general path gives, or leaves
/// the step to it.
@Suite("Plain step line")
struct PlainStepLineTests {
  static let steps: [ScannedStep] = [
    ScannedStep(
      index: 0, time: 0.000184785, origin: .send, label: ".incrementButtonTapped", effects: [],
      isReplayable: true),
    ScannedStep(
      index: 123_456_789, time: 12_345.6789, origin: .effect(cause: 7), label: "", effects: [3],
      isReplayable: false),
    ScannedStep(
      index: 42, time: -0.0004, origin: .effect(cause: nil), label: #".say("hi ~ there")"#,
      effects: [], isReplayable: true),
    ScannedStep(
      index: 999_999, time: -2.5, origin: .effect(cause: 1_234_567_890_123), label: ".x",
      effects: [], isReplayable: false),
    ScannedStep(
      index: Int.max, time: 0.0005, origin: .effect(cause: -3), label: String(repeating: "a", count: 300),
      effects: [], isReplayable: true),
    ScannedStep(
      index: -5, time: 1e11, origin: .send, label: ".y", effects: [], isReplayable: true),
  ]

  @Test("the byte writer spells each step as stepLine and rendered do", arguments: steps)
  func sameAsGeneralPath(step: ScannedStep) throws {
    let fast = try #require(plainStepLine(step, style: .plain))
    #expect(fast == TerminalText.rendered(stepLine(step, style: .plain)))
  }

  @Test("labels to escape, colour and huge times are left to the general path")
  func leavesOddStepsAlone() {
    for label in [".a\u{1B}[2Jb", ".caf\u{e9}", ".tab\there", ".del\u{7F}"] {
      let step = ScannedStep(
        index: 1, time: 0, origin: .send, label: label, effects: [], isReplayable: true)
      #expect(plainStepLine(step, style: .plain) == nil)
    }
    let step = Self.steps[0]
    #expect(plainStepLine(step, style: Style(usesColor: true)) == nil)
    var huge = step
    huge.time = 1e300
    #expect(plainStepLine(huge, style: .plain) == nil)
  }
}

/// `--action` globs over bytes where every byte is a character, as over characters elsewhere.
@Suite("Label pattern")
struct LabelPatternTests {
  static let labels = [
    ".timerTick", ".incrementButtonTapped", "", ".todo(.checkBoxToggled)", ".say(\"*?\")",
    ".caf\u{e9}Tick", ".e\u{301}", ".line\r\nbreak", ".tab\tTick", String(repeating: "a", count: 40),
  ]

  @Test(
    "a glob matches the labels it matched character by character",
    arguments: ["*Tick*", ".?imer*", "*", "?", "", ".todo(*checkBox*", "*a*a*a*b", ".e?", "*\u{e9}*",
      ".line?break", "*(\"\\*?\")"])
  func sameAsCharacters(pattern: String) {
    for label in Self.labels {
      let characters = Array(label)
      let expected = Self.characterGlob(Array(pattern), characters)
      let isGlob = pattern.contains("*") || pattern.contains("?")
      #expect(LabelPattern(text: pattern).matches(label) == (isGlob ? expected : label.contains(pattern)))
    }
  }

  /// The reference: the character matcher as it was.
  static func characterGlob(_ pattern: [Character], _ label: [Character]) -> Bool {
    var p = 0
    var l = 0
    var star: Int?
    var resume = 0
    while l < label.count {
      if p < pattern.count, pattern[p] == "?" || pattern[p] == label[l] {
        p += 1
        l += 1
      } else if p < pattern.count, pattern[p] == "*" {
        star = p
        resume = l
        p += 1
      } else if let star {
        p = star + 1
        resume += 1
        l = resume
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
