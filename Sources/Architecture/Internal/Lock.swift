import Synchronization

/// A small mutual-exclusion lock for state shared across threads.
package final class Lock: Sendable {
  private let mutex = Mutex<Void>(())

  package init() {}

  package func withLock<R>(_ body: () throws -> R) rethrows -> R {
    try mutex.withLock { _ in try body() }
  }
}
