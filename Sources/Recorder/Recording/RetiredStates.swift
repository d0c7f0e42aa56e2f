import Foundation
import Synchronization

/// Previous states the recorder's thread is done with, freed on the app's thread, one per step.
///
/// Keeping the previous state makes the app's next change copy what it changes. When the
/// recorder's thread dropped the old copies, the app's thread allocated every copy and the
/// recorder's thread freed them, in bursts of a batch: the allocator handed the freed memory back
/// to the system, and the app's next copy faulted it in again, page by page. For 10,000 plain
/// array elements that was half the recorder's cost. Freed by the app as it makes new copies,
/// the memory is reused as it is without a recorder.
///
/// Only large states are handed back (``RecordingSession`` decides): for a small one the hand-over
/// costs more than freeing it where it is.
@usableFromInline
// unchecked: the app's states; `states` is read and written only under `lock`
final class RetiredStates<State>: @unchecked Sendable {
  private let lock = NSLock()
  // Guarded by `lock`.
  private var states: [State] = []
  /// How many states wait: read without the lock on every step.
  @usableFromInline let waiting = Atomic<Int>(0)

  init() {}

  /// Hands `state` to the app's thread; called on the recorder's thread. Past `limit` waiting
  /// (an app that stopped sending), the oldest is freed here.
  func retire(_ state: consuming State, keeping limit: Int) {
    var overflow: State?
    lock.lock()
    states.append(state)
    if states.count > limit { overflow = states.removeFirst() }
    waiting.store(states.count, ordering: .relaxed)
    lock.unlock()
    _ = overflow  // Freed here, outside the lock.
  }

  /// Frees the oldest waiting state, if any; called on the app's thread after each step.
  // Inlined, so that the check costs the app a load rather than a call into generic code.
  @inlinable
  func freeOne() {
    if waiting.load(ordering: .relaxed) > 0 { freeOldest() }
  }

  @usableFromInline
  func freeOldest() {
    lock.lock()
    let oldest: State? = states.isEmpty ? nil : states.removeFirst()
    waiting.store(states.count, ordering: .relaxed)
    lock.unlock()
    _ = oldest  // Freed here, outside the lock.
  }
}
