/// The older spelling of ``unimplemented(_:fileID:filePath:line:column:)``: an async throwing
/// closure that reports `Unimplemented: description` when called, then throws.
///
/// ```swift
/// static let testValue = Self(fetch: XCTUnimplemented("NumberFactClient.fetch"))
/// ```
public func XCTUnimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) async throws -> Result {
  unimplemented(description(), fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The older spelling of the throwing `unimplemented`: reports when called, then throws.
public func XCTUnimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) throws -> Result {
  unimplemented(description(), fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The older spelling of the async `unimplemented` with a placeholder: reports when called,
/// then returns `placeholder`.
public func XCTUnimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) async -> Result {
  unimplemented(
    description(), placeholder: placeholder(),
    fileID: fileID, filePath: filePath, line: line, column: column
  )
}

/// The older spelling of the async `unimplemented`: reports when called, then returns a default
/// value of `Result`, or stops the program if it has none.
public func XCTUnimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  file: StaticString = #file,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) async -> Result {
  unimplemented(
    description(), file: file, fileID: fileID, filePath: filePath, line: line, column: column
  )
}

/// The older spelling of `unimplemented` with a placeholder: reports when called, then returns
/// `placeholder`.
public func XCTUnimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  placeholder: @autoclosure @escaping @Sendable () -> Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) -> Result {
  unimplemented(
    description(), placeholder: placeholder(),
    fileID: fileID, filePath: filePath, line: line, column: column
  )
}

/// The older spelling of `unimplemented`: reports when called, then returns a default value of
/// `Result`, or stops the program if it has none.
public func XCTUnimplemented<each A, Result>(
  _ description: @autoclosure @escaping @Sendable () -> String = "",
  file: StaticString = #file,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each A) -> Result {
  unimplemented(
    description(), file: file, fileID: fileID, filePath: filePath, line: line, column: column
  )
}

/// The older name of ``UnimplementedFailure``.
public typealias XCTUnimplementedFailure = UnimplementedFailure
