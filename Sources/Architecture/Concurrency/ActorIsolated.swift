/// A value isolated to an actor, so async code can read and change it safely.
///
/// ```swift
/// let isSettingsOpen = ActorIsolated(false)
/// store.dependencies.openSettings = { await isSettingsOpen.setValue(true) }
/// await store.send(.settingsButtonTapped)
/// await isSettingsOpen.withValue { #expect($0) }
/// ```
///
/// For synchronous access, use ``LockIsolated``.
@dynamicMemberLookup
public final actor ActorIsolated<Value> {
  /// The isolated value.
  public var value: Value

  /// Isolates `value` in an actor.
  public init(_ value: @autoclosure @Sendable () throws -> Value) rethrows {
    self.value = try value()
  }

  /// Reads a property of the value.
  public subscript<Subject: Sendable>(
    dynamicMember keyPath: KeyPath<Value, Subject> & Sendable
  ) -> Subject {
    value[keyPath: keyPath]
  }

  /// Runs `operation` with isolated access to the value, for a change made in one transaction.
  ///
  /// ```swift
  /// await count.withValue { $0 += 1 }
  /// ```
  public func withValue<T: Sendable>(
    _ operation: @Sendable (inout Value) throws -> T
  ) rethrows -> T {
    var value = self.value
    defer { self.value = value }
    return try operation(&value)
  }

  /// Replaces the value.
  public func setValue(_ newValue: @autoclosure @Sendable () throws -> Value) rethrows {
    value = try newValue()
  }
}
