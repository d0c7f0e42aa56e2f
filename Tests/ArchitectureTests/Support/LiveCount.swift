import Foundation

/// Counts live `Lifetime`s, to prove an identified array destroys every element exactly once.
final class LiveCount: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  var live: Int { lock.withLock { value } }
  func add(_ delta: Int) { lock.withLock { value += delta } }
}

/// An object counted by a `LiveCount` from its creation to its destruction.
final class Lifetime {
  let count: LiveCount
  init(_ count: LiveCount) {
    self.count = count
    count.add(1)
  }
  deinit { count.add(-1) }
}
