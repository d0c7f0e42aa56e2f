import Foundation

/// A value guarded by a lock, so it can be read and changed from any thread or task.
///
/// Tests use it to collect what a dependency was called with from inside effects:
///
/// ```swift
/// let events = LockIsolated<[String]>([])
/// let store = TestStore(initialState: Feature.State()) {
///   Feature()
/// } withDependencies: {
///   $0.analytics.track = { event in events.withValue { $0.append(event) } }
/// }
/// await store.send(.buttonTapped)
/// #expect(events.value == ["Button Tapped"])
/// ```
///
/// The lock is recursive, so `withValue` may be called again from inside its operation.
/// Unlike ConcurrencyExtras, closures need not be `@Sendable`: they run under the lock before
/// the call returns.
@dynamicMemberLookup
// unchecked: `storage` is read and written only under `lock`, recursive so closures may re-enter
public final class LockIsolated<Value>: @unchecked Sendable {
  private var storage: Value
  private let lock = NSRecursiveLock()

  /// Isolates `value` behind a lock.
  public init(_ value: @autoclosure () throws -> Value) rethrows {
    storage = try value()
  }

  /// The current value, read under the lock.
  public var value: Value {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  /// Reads a property of the value under the lock.
  public subscript<Subject>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    lock.lock()
    defer { lock.unlock() }
    return storage[keyPath: keyPath]
  }

  /// Runs `operation` with exclusive access to the value, for a change made in one transaction.
  ///
  /// ```swift
  /// count.withValue { $0 += 1 }
  /// ```
  public func withValue<T>(_ operation: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    var value = storage
    defer { storage = value }
    return try operation(&value)
  }

  /// Replaces the value.
  public func setValue(_ newValue: @autoclosure () throws -> Value) rethrows {
    lock.lock()
    defer { lock.unlock() }
    storage = try newValue()
  }
}

extension LockIsolated: Equatable where Value: Equatable {
  /// Whether the two isolated values are equal.
  public static func == (lhs: LockIsolated, rhs: LockIsolated) -> Bool {
    lhs.value == rhs.value
  }
}

extension LockIsolated: Hashable where Value: Hashable {
  /// Hashes the isolated value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }
}
