/// The result of an async operation, as a success or any error: TCA's `Result` for actions.
///
/// Unlike `Result<Success, any Error>`, it is `Equatable` and `Hashable` when `Success` is, so an
/// action carrying it can be asserted in a `TestStore`:
///
/// ```swift
/// case .factButtonTapped:
///   return .run { [count = state.count] send in
///     await send(.factResponse(TaskResult { try await numberFact.fetch(count) }))
///   }
///
/// await store.receive(.factResponse(.success("0 is a good number.")))
/// ```
///
/// Failures are equal when their errors are equal (``==(_:_:)`` says how errors compare); a
/// failure decoded from a recording holds a ``RecordedError``.
public enum TaskResult<Success: Sendable>: Sendable {
  /// The operation returned a value.
  case success(Success)
  /// The operation threw an error.
  case failure(any Error)

  /// Runs `body` and captures what it returns or throws.
  ///
  /// ```swift
  /// let result = await TaskResult { try await client.fetch() }
  /// ```
  public init(catching body: @Sendable () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }

  /// Converts a `Result` into a task result.
  public init<Failure>(_ result: Result<Success, Failure>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }

  /// The success value, or the failure's error thrown.
  public var value: Success {
    get throws {
      switch self {
      case .success(let value): return value
      case .failure(let error): throw error
      }
    }
  }

  /// Transforms a success value, leaving a failure as it is.
  public func map<NewSuccess>(
    _ transform: (Success) -> NewSuccess
  ) -> TaskResult<NewSuccess> {
    switch self {
    case .success(let value): return .success(transform(value))
    case .failure(let error): return .failure(error)
    }
  }

  /// Transforms a success value into another task result, leaving a failure as it is.
  public func flatMap<NewSuccess>(
    _ transform: (Success) -> TaskResult<NewSuccess>
  ) -> TaskResult<NewSuccess> {
    switch self {
    case .success(let value): return transform(value)
    case .failure(let error): return .failure(error)
    }
  }
}

extension Result where Success: Sendable, Failure == any Error {
  /// Converts a task result into a `Result`.
  public init(_ result: TaskResult<Success>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }
}

extension TaskResult: Equatable where Success: Equatable {
  /// Whether two results are the same success, or failures with equal errors.
  ///
  /// Two errors are equal when:
  /// - they are of the same `Equatable` type and `==` says so; or
  /// - one is a ``RecordedError`` recorded from an error of the other's type with the same
  ///   description, so a replayed failure equals the live one; or
  /// - they are of the same type, which is not `Equatable`, and their descriptions
  ///   (`String(describing:)`) are equal.
  ///
  /// TCA itself reports a non-`Equatable` error and calls the failures different; comparing
  /// descriptions instead lets plain error types be asserted without boilerplate.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.success(let lhs), .success(let rhs)): lhs == rhs
    case (.failure(let lhs), .failure(let rhs)): errorsAreEqual(lhs, rhs)
    default: false
    }
  }
}

extension TaskResult: Hashable where Success: Hashable {
  /// Hashes a success by its value, and a failure by its error's type name only.
  ///
  /// Errors that compare equal can differ in everything but their type (an `Equatable` error's
  /// `==` may ignore fields, and a ``RecordedError`` stands for another type), so the type name
  /// is all a hash can use and stay consistent with ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .success(let value):
      hasher.combine(0)
      hasher.combine(value)
    case .failure(let error):
      hasher.combine(1)
      hasher.combine(errorTypeName(error))
    }
  }
}

/// The error equality of ``TaskResult``; see ``TaskResult/==(_:_:)``.
func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
  if let recorded = lhs as? RecordedError, !(rhs is RecordedError) {
    return recorded.matches(rhs)
  }
  if let recorded = rhs as? RecordedError, !(lhs is RecordedError) {
    return recorded.matches(lhs)
  }
  guard type(of: lhs) == type(of: rhs) else { return false }
  return openedErrorsAreEqual(lhs, rhs)
}

/// Compares two errors of the same type, `lhs`'s opened so its own type is asked for `==`.
private func openedErrorsAreEqual<E: Error>(_ lhs: E, _ rhs: any Error) -> Bool {
  equalIfEquatable(lhs, rhs) ?? (String(describing: lhs) == String(describing: rhs))
}

/// The name a ``RecordedError`` records for an error's type; it stays the same across builds.
func errorTypeName(_ error: any Error) -> String {
  if let recorded = error as? RecordedError { return recorded.typeName }
  return dumpTypeName(type(of: error))
}
