/// A Swift test file written from a trace, with the facts needed to map it back to the trace.
public struct GeneratedTest: Sendable, Equatable {
  /// One test function of the file.
  public struct Function: Sendable, Equatable {
    /// The function's Swift name, like `steps0To49` (`testSteps0To49` for XCTest).
    public var name: String
    /// The trace steps it replays.
    public var steps: ClosedRange<Int>
  }

  /// A step the file leaves out, and why.
  public struct SkippedStep: Sendable, Equatable {
    /// The step's index in the trace.
    public var index: Int
    /// Why it cannot be replayed, as the comment in the file says.
    public var reason: String
  }

  /// The Swift source text.
  public var source: String
  /// The test functions, in file order.
  public var functions: [Function]
  /// The 1-based line of each step's `send` or `receive`, by step index.
  public var lines: [Int: Int]
  /// Steps the file leaves out; each ends one test function and the next starts after it.
  public var skippedSteps: [SkippedStep]
  /// The reader's warning when the trace ended in an incomplete line, which was left out.
  public var warning: String? = nil
}
