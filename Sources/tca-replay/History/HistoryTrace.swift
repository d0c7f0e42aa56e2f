#if canImport(Glibc)
  import Glibc
#endif
import Recorder
import TraceJSON

/// A history a host wrote as a trace (`run` with `output`).
enum HistoryTrace {
  /// Ends the trace with a crash record for the entry `crash` names: the host wrote a line for
  /// each step it finished, and died reducing this one. The record names what sent the action,
  /// renumbered: an effect of a step the history holds, or the user.
  static func appendCrash(
    _ crash: HostCrash, of history: History, to path: String, recording: TraceIndex
  ) throws {
    guard crash.step < history.entries.count else { return }
    // The crashing action, and when the recording had it.
    let crashed: (action: JSONValue?, label: String?, time: Double, origin: TraceStep.Origin?)
    switch history.entries[crash.step] {
    case let .recorded(index) where recording.crash?.step == index:
      let record = recording.crash
      crashed = (record?.action, record?.label, record?.time ?? 0, record?.origin)
    case let .recorded(index) where recording.stepIndices.contains(index):
      let step = try recording.step(at: index)
      crashed = (step.action, step.label, step.time, step.origin)
    case .recorded:
      return
    case let .new(action, label, _, _):
      crashed = (action, label, 0, .send)
    }
    var origin = crashed.origin
    if case let .effect(cause?)? = origin {
      // The cause's place in the history, before the crash; not in it: unknown.
      let position = history.entries[..<crash.step].firstIndex(of: .recorded(cause))
      origin = .effect(cause: position)
    }
    let record = TraceCrash(
      step: crash.step, time: crashed.time, action: crashed.action ?? .null,
      label: crashed.label ?? "(crashed)", signal: "\(signalName(crash.signal))", origin: origin)
    let line = Array((TraceRecord.crash(record).json.jsonString + "\n").utf8)
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard descriptor >= 0 else { throw UsageError(message: "\(path): cannot append the crash") }
    defer { close(descriptor) }
    let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == line.count else {
      throw UsageError(message: "\(path): cannot append the crash")
    }
  }
}
