/// A closure that reports `Unimplemented: description` when called, then throws
/// ``UnimplementedFailure``.
///
/// The test value of a dependency client starts with every endpoint unimplemented, so a test
/// fails if the feature uses an endpoint the test did not expect:
///
/// ```swift
/// extension NumberFactClient: TestDependencyKey {
///   static let testValue = Self(fetch: unimplemented("NumberFactClient.fetch"))
/// }
///
/// store.dependencies.numberFact.fetch = unimplemented("NumberFactClient.fetch")
/// ```
///
/// The report reads:
///
/// ```
/// Unimplemented: NumberFactClient.fetch …
///
///   Defined at:
///     CounterTests/CounterTests.swift:12
///
///   Invoked with:
///     42
/// ```
///
/// Closures of any number of parameters are returned, throwing or not, async or not. A closure
/// that cannot throw returns `placeholder` instead; without a placeholder it returns `()`,
/// `nil`, an empty collection or zero when its result type has one, and stops the program
/// otherwise, naming `file` and `line`. (The forms that may stop take that extra `file:`
/// parameter, as xctest-dynamic-overlay's do; it also keeps overload resolution unambiguous.)
public func unimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) async throws -> Result {
  return { (argument: repeat each A) in
    let description = description()
    reportUnimplemented(
      description, arguments: describing(repeat each argument),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    throw UnimplementedFailure(description: description)
  }
}

/// A throwing closure that reports when called, then throws ``UnimplementedFailure``; see
/// the async throwing `unimplemented`.
public func unimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) throws -> Result {
  return { (argument: repeat each A) in
    let description = description()
    reportUnimplemented(
      description, arguments: describing(repeat each argument),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    throw UnimplementedFailure(description: description)
  }
}

/// An async closure that reports when called, then returns `placeholder`.
public func unimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) async -> Result {
  return { (argument: repeat each A) in
    reportUnimplemented(
      description(), arguments: describing(repeat each argument),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    return placeholder()
  }
}

/// An async closure that reports when called, then returns a default value of `Result`
/// (`()`, `nil`, empty, zero), or stops the program if `Result` has none.
public func unimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  file: StaticString = #file,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) async -> Result {
  return { (argument: repeat each A) in
    let description = description()
    reportUnimplemented(
      description, arguments: describing(repeat each argument),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    return placeholderOrStop(description, file: file, line: line)
  }
}

/// A closure that reports when called, then returns `placeholder`.
public func unimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) -> Result {
  return { (argument: repeat each A) in
    reportUnimplemented(
      description(), arguments: describing(repeat each argument),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    return placeholder()
  }
}

/// A closure that reports when called, then returns a default value of `Result` (`()`, `nil`,
/// empty, zero), or stops the program if `Result` has none.
public func unimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  file: StaticString = #file,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) -> Result {
  return { (argument: repeat each A) in
    let description = description()
    reportUnimplemented(
      description, arguments: describing(repeat each argument),
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    return placeholderOrStop(description, file: file, line: line)
  }
}

/// Reports at once, then returns `placeholder`: for an unimplemented value rather than closure.
///
/// ```swift
/// static var testValue: Int { unimplemented("Config.testValue", placeholder: 0) }
/// ```
@_disfavoredOverload
public func unimplemented<Result>(
  _ description: @autoclosure () -> String = "",
  placeholder: @autoclosure () -> Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> Result {
  reportUnimplemented(
    description(), arguments: [], fileID: fileID, filePath: filePath, line: line, column: column
  )
  return placeholder()
}

/// Reports at once, then returns a default value of `Result` (`()`, `nil`, empty, zero), or
/// stops the program if `Result` has none.
@_disfavoredOverload
public func unimplemented<Result>(
  _ description: @autoclosure () -> String = "",
  file: StaticString = #file,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> Result {
  let description = description()
  reportUnimplemented(
    description, arguments: [], fileID: fileID, filePath: filePath, line: line, column: column
  )
  return placeholderOrStop(description, file: file, line: line)
}

/// The error an unimplemented closure throws after reporting.
public struct UnimplementedFailure: Error, Equatable, Sendable {
  /// The description given to `unimplemented`.
  public let description: String

  /// A failure for the unimplemented closure described by `description`.
  public init(description: String) {
    self.description = description
  }
}

/// Reports `Unimplemented: description …`, where it was defined and what it was called with.
func reportUnimplemented(
  _ description: String,
  arguments: [String],
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  var message = "Unimplemented\(description.isEmpty ? "" : ": \(description)") …"
  message += "\n\n  Defined at:\n    \(fileID):\(line)"
  if !arguments.isEmpty {
    let invocation =
      arguments.count == 1 ? arguments[0] : "(\(arguments.joined(separator: ", ")))"
    message += "\n\n  Invoked with:\n    \(invocation)"
  }
  reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The arguments' debug descriptions, one per argument.
func describing<each A>(_ argument: repeat each A) -> [String] {
  var descriptions: [String] = []
  repeat descriptions.append(String(reflecting: each argument))
  return descriptions
}
