import TraceJSON

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
package final class CheckedTraceReader {
  /// The reader underneath: its path, line and warning.
  package let reader: TraceReader
  /// The trace's header, once ``next()`` has returned it.
  package private(set) var header: TraceHeader?
  /// The state after the last step read; the initial state before the first.
  package var state: JSONValue { checker?.state ?? .null }
  /// How many steps have been read.
  package private(set) var stepCount = 0
  /// The crash record read last, with the state recorded before the step it names.
  private(set) var crash: PendingCrash?
  /// The checks, shared with the scan's threads; set once the header is read.
  private var checker: TraceChecker?

  /// The file being read.
  package var path: String { reader.path }
  /// The line of the record ``next()`` returned last, from 1.
  package var line: Int { reader.line }
  /// Set when the trace ended in an incomplete line, which was skipped.
  package var warning: String? { reader.warning }
  /// ``warning`` without its `warning:` tag.
  var warningMessage: String? { reader.warningMessage }

  /// Opens the trace at `path`.
  package init(path: String) throws(TraceReadError) {
    reader = try TraceReader(path: path)
  }

  /// The index of the last step read, or `nil` before the first one.
  package var lastStep: Int? { checker?.lastStep }

  /// The next record, checked, or `nil` at the end of the trace.
  package func next() throws(TraceReadError) -> TraceRecord? {
    guard let record = try reader.next() else { return nil }
    guard checker != nil else {
      guard case .header(let first) = record else {
        preconditionFailure("TraceReader returns a header first or throws")
      }
      header = first
      checker = TraceChecker(header: first)
      return record
    }
    if let continued = reader.continuation { try checkContinuation(continued) }
    // In place: a big state is not copied.
    try checker!.check(record, path: path, line: line)
    if case .step = record { stepCount += 1 }
    return record
  }

  /// Checks that a later segment of a rotated set starts where the one before ended: at the
  /// next step, from the state reached.
  private func checkContinuation(_ continued: TraceHeader) throws(TraceReadError) {
    let expected = checker!.lastStep.map { $0 + 1 } ?? header!.firstStep
    guard continued.firstStep == expected else {
      throw TraceReadError(
        path: path, line: 1, kind: .malformed,
        message: "the segment starts at step \(continued.firstStep), but the one before it ends "
          + "before step \(expected)")
    }
    guard continued.initialState == checker!.state else {
      throw TraceReadError(
        path: path, line: 1, kind: .malformed,
        message: "the segment's initial state is not the state the one before it ends with")
    }
  }

  /// The first problem in the trace at `path` on or before line `limit` (anywhere when `nil`),
  /// or `nil` when those lines are sound; a trace that cannot be opened is its own problem.
  ///
  /// The whole trace is checked on every core by ``Scan``, as `summary` checks it; only a trace
  /// the scan hands back is read again here, from the start, for the verdict in its words.
  package static func firstProblem(in path: String, through limit: Int? = nil) -> TraceReadError? {
    if limit == nil {
      do {
        let outcome = try Scan.run(path: path, options: .init(labels: false)) { _ in }
        if outcome == .complete { return nil }
      } catch {
        return error
      }
    }
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

  /// The header: read now if ``next()`` has not read it yet.
  package func readHeader() throws(TraceReadError) -> TraceHeader {
    if let header { return header }
    guard case let .header(header) = try next() else {
      preconditionFailure("CheckedTraceReader returns a header first or throws")
    }
    return header
  }

  /// The next step with the recorded states before and after it, rebuilt from the patches;
  /// `nil` at the end. A crash record read on the way is kept in ``crash``.
  func nextStep() throws(TraceReadError) -> RecordedStep? {
    var before = state
    while let record = try next() {
      guard case let .step(step) = record else {
        if case let .crash(crash) = record { self.crash = PendingCrash(crash, before: before) }
        before = state
        continue
      }
      return RecordedStep(step: step, before: before, after: state)
    }
    return nil
  }
}

extension TraceReadError {
  /// The first problem in this error's trace, up to and including this one: what every command
  /// reports for the file, whichever part of it the command read.
  ///
  /// A command that reads part of a trace stops at the first problem it meets; an earlier line
  /// may be broken in a way only a full read sees (a patch that does not apply, a torn record
  /// past its first bytes). Reading again, checked, up to this error's line finds it. That costs
  /// a read of the file, but only when there is an error to report.
  package func firstInTrace() -> TraceReadError {
    guard kind == .malformed else { return self }
    return CheckedTraceReader.firstProblem(in: path, through: line) ?? self
  }

}
