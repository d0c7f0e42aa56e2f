/// Reads a trace record by record, as ``TraceReader`` does, and checks each record against the
/// ones before it: the one reader whose verdict every command reports.
///
/// ```swift
/// let reader = try CheckedTraceReader(path: "Traces/counter.ndjson")
/// while let record = try reader.next() { … }   // reader.state: the state after the last step
/// ```
///
/// Besides what ``TraceReader`` checks (each line is a record), it checks that only the first
/// line is a header, that steps are numbered on from the header's `firstStep` with no gap or
/// repeat, that every patch applies, and that a keyframe follows the step it names and holds the
/// state the patches rebuild. The first problem is thrown, naming the file and the line.
///
/// Commands that read only part of a trace (``TraceIndex``) find fewer problems, and may find
/// them in another order. They report ``TraceReadError/firstInTrace()`` instead, which asks
/// this reader for the first problem up to theirs: so every command names the same first
/// problem for the same file.
public final class CheckedTraceReader {
  /// The reader underneath: its path, line and warning.
  public let reader: TraceReader
  /// The trace's header, once ``next()`` has returned it.
  public private(set) var header: TraceHeader?
  /// The state after the last step read; the initial state before the first.
  public private(set) var state: JSONValue = .null
  /// How many steps have been read.
  public private(set) var stepCount = 0

  /// The file being read.
  public var path: String { reader.path }
  /// The line of the record ``next()`` returned last, from 1.
  public var line: Int { reader.line }
  /// Set when the trace ended in an incomplete line, which was skipped.
  public var warning: String? { reader.warning }
  /// ``warning`` without its `warning:` tag.
  var warningMessage: String? { reader.warningMessage }

  /// Opens the trace at `path`.
  public init(path: String) throws(TraceReadError) {
    reader = try TraceReader(path: path)
  }

  /// The index of the last step read, or `nil` before the first one.
  public var lastStep: Int? {
    guard let header, stepCount > 0 else { return nil }
    return header.firstStep + stepCount - 1
  }

  /// The next record, checked, or `nil` at the end of the trace.
  public func next() throws(TraceReadError) -> TraceRecord? {
    guard let record = try reader.next() else { return nil }
    guard let header else {
      guard case .header(let first) = record else {
        preconditionFailure("TraceReader returns a header first or throws")
      }
      header = first
      state = first.initialState
      return record
    }
    switch record {
    case .header:
      throw failure("a second header record; only the first line may be a header")
    case .step(let step):
      let expected = header.firstStep + stepCount
      guard step.index == expected else { throw failure(stepIndexProblem(step.index, expected)) }
      try reader.apply(step, to: &state)
      stepCount += 1
    case .keyframe(let keyframe):
      guard keyframe.index == lastStep else {
        throw failure(keyframeIndexProblem(keyframe.index, lastStep: lastStep))
      }
      guard keyframe.state == state else {
        throw failure(
          "the keyframe after step \(keyframe.index) differs from the state the patches rebuild")
      }
    case .effect, .end:
      break
    }
    return record
  }

  private func failure(_ message: String) -> TraceReadError {
    TraceReadError(path: path, line: line, kind: .malformed, message: message)
  }

  /// The first problem in the trace at `path` on or before line `limit` (anywhere when `nil`),
  /// or `nil` when those lines are sound; a trace that cannot be opened is its own problem.
  public static func firstProblem(in path: String, through limit: Int? = nil) -> TraceReadError? {
    do {
      let reader = try CheckedTraceReader(path: path)
      while try reader.next() != nil {
        if let limit, reader.line >= limit { return nil }
      }
      return nil
    } catch {
      guard let limit, let line = error.line, line > limit else { return error }
      return nil
    }
  }
}

/// Why a step's index is not the one expected.
func stepIndexProblem(_ index: Int, _ expected: Int) -> String {
  index < expected
    ? "the step index repeats or goes back (step \(index) after step \(expected - 1))"
    : "the step index skips steps (step \(index) where step \(expected) was expected)"
}

/// Why a keyframe's index does not name the step before it.
func keyframeIndexProblem(_ index: Int, lastStep: Int?) -> String {
  "the keyframe names step \(index), but follows "
    + (lastStep.map { "step \($0)" } ?? "no step")
}

extension TraceReadError {
  /// The first problem in this error's trace, up to and including this one: what every command
  /// reports for the file, whichever part of it the command read.
  ///
  /// A command that reads part of a trace stops at the first problem it meets; an earlier line
  /// may be broken in a way only a full read sees (a patch that does not apply, a torn record
  /// past its first bytes). Reading again, checked, up to this error's line finds it. That costs
  /// a read of the file, but only when there is an error to report.
  public func firstInTrace() -> TraceReadError {
    guard kind == .malformed else { return self }
    return CheckedTraceReader.firstProblem(in: path, through: line) ?? self
  }
}
