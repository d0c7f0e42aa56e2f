import Synchronization

/// A thread-safe list that tasks append to, for asserting the order things happened in.
final class EventLog<Event: Sendable>: Sendable {
  private let events = Mutex<[Event]>([])

  /// The events so far, in order.
  var all: [Event] {
    self.events.withLock { $0 }
  }

  func append(_ event: Event) {
    self.events.withLock { $0.append(event) }
  }
}
