import Foundation
import Recorder
import TraceJSON

/// The served viewer's feed: one thread follows the trace with ``TraceFollower`` and keeps every
/// record as a Server-Sent Event; each client reads the events from its own cursor.
///
/// ```swift
/// let feed = LiveFeed(path: "session.ndjson")
/// feed.start()
/// var cursor = 0
/// let batch = feed.wait(after: cursor, timeout: 15)   // blocks until something is new
/// cursor = batch.next
/// ```
///
/// The follower never waits for a client: it appends under a lock and wakes the readers, so a
/// slow or stuck client holds back only itself. Events are kept for the whole session (about
/// the trace's size less its keyframes), so a page that connects late, or reconnects with
/// `Last-Event-ID`, is sent everything it has not seen.
// unchecked: its vars are read and written only under `condition`
final class LiveFeed: @unchecked Sendable {
  /// What ``wait(after:timeout:)`` hands a client.
  struct Batch {
    /// The events after the cursor, each a whole `event:`/`id:`/`data:` block.
    var events: [[UInt8]]
    /// The cursor after them.
    var next: Int
    /// Whether the feed has ended (an end or crash record, or an error) and this is the rest.
    var isFinal: Bool
  }

  let path: String
  private let condition = NSCondition()
  private var events: [[UInt8]] = []
  /// Event id → the position after it, for `Last-Event-ID`.
  private var positions: [String: Int] = [:]
  private var steps = 0
  private var ended = false
  private var stopped = false
  /// Called on the feed's thread with each problem worth a line on standard error.
  private let report: @Sendable (String) -> Void
  private let pollMicroseconds: UInt32

  /// A feed of the trace at `path`, which need not exist yet; `report` receives notes and
  /// errors for standard error.
  init(
    path: String, pollMicroseconds: UInt32 = 20_000,
    report: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.path = path
    self.pollMicroseconds = pollMicroseconds
    self.report = report
  }

  /// Starts following on a thread of its own.
  func start() {
    Thread.detachNewThread { [self] in follow() }
  }

  /// Stops following at its next poll.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  /// How many steps the feed has read.
  var stepCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return steps
  }

  /// The cursor that resumes after the event with `id`, or `nil` when no event has it.
  func position(afterEventID id: String) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    return positions[id]
  }

  /// The events after `cursor`, waiting up to `timeout` seconds for one when there are none.
  func wait(after cursor: Int, timeout: Double) -> Batch {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: timeout)
    while events.count <= cursor, !ended, !stopped {
      if !condition.wait(until: deadline) { break }
    }
    let start = min(cursor, events.count)
    // Copied, not sliced: a slice a stuck client holds would make every append copy them all.
    return Batch(
      events: Array(events[start...]), next: events.count, isFinal: ended || stopped)
  }

  private func publish(_ event: LiveEvent) {
    let bytes = event.bytes
    condition.lock()
    events.append(bytes)
    if event.kind == "step" { steps += 1 }
    positions[event.id] = events.count
    condition.broadcast()
    condition.unlock()
  }

  private func finish() {
    condition.lock()
    ended = true
    condition.broadcast()
    condition.unlock()
  }

  private var isStopped: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopped
  }

  /// The feed's thread: polls the follower as `log --follow` does, until the end or crash
  /// record, a broken line, or ``stop()``.
  private func follow() {
    let follower = TraceFollower(path: path)
    var builder = LiveEvent.Builder(file: String(path.split(separator: "/").last ?? ""))
    var lostReported = 0
    var saidWaiting = false
    while !isStopped {
      var fresh: [LiveEvent] = []
      let progress: TraceFollower.Progress
      do {
        progress = try follower.poll { record in
          // Steps rotated away before they could be read: a stand-in step carries the state
          // the next segment starts from, so the page's states stay right after it.
          if case .header(let header) = record, follower.lost.count > lostReported {
            let range = follower.lost[follower.lost.count - 1]
            lostReported = follower.lost.count
            report(
              "note: steps \(range.lowerBound)…\(range.upperBound) were rotated away before "
                + "they could be read")
            fresh.append(builder.lost(range, reason: "rotated away", state: header.initialState))
          }
          fresh.append(contentsOf: builder.events(for: record))
        }
      } catch {
        for event in fresh { publish(event) }
        report("Error: \(error.firstInTrace().description)")
        publish(builder.failure(error.firstInTrace().description))
        finish()
        return
      }
      for event in fresh { publish(event) }
      switch progress {
      case .ended:
        finish()
        return
      case .read: continue
      case .waitingForFile:
        if !saidWaiting {
          report("waiting for \(path) to appear")
          saidWaiting = true
        }
        usleep(pollMicroseconds)
      case .idle:
        usleep(pollMicroseconds)
      }
    }
  }
}
