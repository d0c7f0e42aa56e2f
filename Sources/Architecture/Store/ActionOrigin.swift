#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an action that a store reduced came from.
///
/// Steps are numbered per root store from 0, in the order the store reduced them. A recorder
/// reads the origin of the action being reduced from the store, so that a trace can say which
/// step's effect produced each action.
public enum ActionOrigin: Sendable, Hashable {
  /// Sent from outside the store: a user, a view, a test's `send`.
  case send
  /// Produced by an effect returned when the store reduced step `parent`.
  case effect(parent: Int)
}

/// The step a root store is reducing right now, read by reducers that record.
@usableFromInline
package struct ReduceContext: Sendable, Equatable {
  /// The number of the step being reduced: 0 for the first action the root store reduced.
  package var step: Int
  /// Where the action being reduced came from.
  package var origin: ActionOrigin

  /// The step this thread's store is reducing, or `nil` outside a store's reduce.
  ///
  /// Thread-local rather than actor-isolated: reducers are synchronous and run on the thread
  /// of the store that calls them, which under a test runner need not be the main thread.
  @usableFromInline
  package static var current: ReduceContext? {
    ThreadLocal.box.context
  }

  /// Runs `body` with `context` as the current reduce context of this thread.
  package static func withValue<R>(_ context: ReduceContext, _ body: () throws -> R) rethrows
    -> R
  {
    let box = ThreadLocal.box
    let outer = box.context
    box.context = context
    defer { box.context = outer }
    return try body()
  }
}

/// Per-thread storage for what a store's reduce publishes to the reducers it runs.
enum ThreadLocal {
  final class Box {
    // One thread's own box: exclusive by construction, so not checked at run time on each of
    // the several accesses a recorded reduce makes.
    @exclusivity(unchecked) var context: ReduceContext?
    @exclusivity(unchecked) var tap: DependencyTap?
  }

  static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
      if let pointer { Unmanaged<Box>.fromOpaque(pointer).release() }
    }
    return key
  }()

  static var box: Box {
    if let pointer = pthread_getspecific(key) {
      return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue()
    }
    let box = Box()
    pthread_setspecific(key, Unmanaged.passRetained(box).toOpaque())
    return box
  }
}
