/// A Swift test file written from a trace, with the facts needed to map it back to the trace.
package struct GeneratedTest: Sendable, Equatable {
  /// One test function of the file.
  package struct Function: Sendable, Equatable {
    /// What a test function does.
    package enum Kind: Sendable, Equatable {
      /// Replays recorded steps and asserts what they changed.
      case steps
      /// Replays steps whose reducer reads values the trace redacted: disabled (skipped, in
      /// XCTest) until the user supplies them, as its comments say.
      case needsValues
      /// Sends the step that crashed the reducer when recorded; it fails until the crash is
      /// fixed.
      case crash
    }

    /// The function's Swift name, like `steps0To49` (`testSteps0To49` for XCTest).
    package var name: String
    /// The trace steps it replays.
    package var steps: ClosedRange<Int>
    /// What it does.
    package var kind: Kind = .steps
  }

  /// A step the file leaves out, and why.
  package struct SkippedStep: Sendable, Equatable {
    /// The step's index in the trace.
    package var index: Int
    /// Why it cannot be replayed, as the comment in the file says.
    package var reason: String
  }

  /// The Swift source text.
  package var source: String
  /// The test functions, in file order.
  package var functions: [Function]
  /// The 1-based line of each step's `send` or `receive`, by step index.
  package var lines: [Int: Int]
  /// The 1-based lines each step owns, by step index: its call, and what the file does about
  /// it before and after (advancing the clock, turning exhaustivity or effects on or off,
  /// awaiting effects), so that an issue reported on any of them names the step.
  package var blocks: [Int: ClosedRange<Int>] = [:]
  /// Steps the file leaves out; each ends one test function and the next starts after it.
  package var skippedSteps: [SkippedStep]
  /// The reader's warning when the trace ended in an incomplete line, which was left out.
  package var warning: String? = nil

  /// The step whose lines hold `line` (1-based), if any.
  package func step(atLine line: Int) -> Int? {
    blocks.first { $0.value.contains(line) }?.key
  }
}
