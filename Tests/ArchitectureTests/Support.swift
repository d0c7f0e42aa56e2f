import Architecture
import Synchronization

/// A thread-safe log that effects write to and tests read.
final class EventLog: Sendable {
  private let events = Mutex<[String]>([])
  func append(_ event: String) { events.withLock { $0.append(event) } }
  var all: [String] { events.withLock { $0 } }
}

/// Suspends an effect until the test cancels it, logging the cancellation.
func sleepUntilCancelled(_ name: String, log: EventLog) async {
  do {
    try await Task.sleep(for: .seconds(3600))
    log.append("\(name) woke")
  } catch {
    log.append("\(name) cancelled")
  }
}
