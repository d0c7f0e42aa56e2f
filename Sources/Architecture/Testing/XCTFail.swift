/// Reports a failure from app code: a test failure under XCTest or Swift Testing, a log line
/// in an app, like ``reportIssue(_:fileID:filePath:line:column:)``.
///
/// TCA re-exports this from XCTestDynamicOverlay, so app targets, which do not link XCTest,
/// can fail a test from code that should never run in one:
///
/// ```swift
/// static let testValue = SpeechClient(
///   authorizationStatus: {
///     XCTFail("SpeechClient.authorizationStatus is unimplemented")
///     return .denied
///   }
/// )
/// ```
///
/// It is a disfavoured overload, so a test file that imports XCTest still calls XCTest's.
@_disfavoredOverload
public func XCTFail(
  _ message: String = "",
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
}
