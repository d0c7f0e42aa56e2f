#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Testing
import Synchronization

/// A problem found at run time that a test should fail on and an app should log.
///
/// `TestStore` assertions, unimplemented dependencies and unhandled effect errors all report
/// through ``reportIssue(_:fileID:filePath:line:column:)``.
public struct ReportedIssue: Sendable, Equatable, CustomStringConvertible {
  /// The message, in the wording a TCA user searches for.
  public var message: String
  /// The `#fileID` of the code the issue is attributed to.
  public var fileID: String
  /// The `#filePath` of the code the issue is attributed to.
  public var filePath: String
  /// The line the issue is attributed to.
  public var line: UInt
  /// The column the issue is attributed to.
  public var column: UInt

  public var description: String { "\(fileID):\(line): \(message)" }
}

/// Reports an issue: a test failure under XCTest or Swift Testing, a log line otherwise.
///
/// Inside ``withIssueCapture(_:)`` the issue is captured instead, so a test can assert that a
/// failure was reported and with which wording:
///
/// ```swift
/// let issues = await withIssueCapture {
///   await store.send(.incrementButtonTapped) { $0.count = 2 }
/// }
/// #expect(issues.first?.message.hasPrefix("A state change does not match expectation") == true)
/// ```
public func reportIssue(
  _ message: @autoclosure () -> String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let issue = ReportedIssue(
    message: message(),
    fileID: "\(fileID)",
    filePath: "\(filePath)",
    line: line,
    column: column
  )
  if let capture = IssueCapture.current {
    capture.append(issue)
    return
  }
  if Test.current != nil {
    Issue.record(
      Comment(rawValue: issue.message),
      sourceLocation: SourceLocation(
        fileID: issue.fileID,
        filePath: issue.filePath,
        line: Int(issue.line),
        column: Int(issue.column)
      )
    )
    return
  }
  if let xctFail = XCTestBridge.xctFail {
    xctFail(issue.message, filePath, line)
    return
  }
  var stderr = StandardError()
  print("[Architecture] \(issue)", to: &stderr)
}

/// Runs `operation`, capturing the issues it reports instead of failing the test.
///
/// This is how the project's own tests prove that a `TestStore` failure is reported. On Linux
/// XCTest has no `XCTExpectFailure`, so capturing is the portable way to expect a failure.
public func withIssueCapture(
  isolation: isolated (any Actor)? = #isolation,
  _ operation: () async throws -> Void
) async rethrows -> [ReportedIssue] {
  let capture = IssueCapture()
  try await IssueCapture.$current.withValue(capture) { try await operation() }
  return capture.issues
}

/// Synchronous flavour of ``withIssueCapture(_:)``.
public func withIssueCapture(_ operation: () throws -> Void) rethrows -> [ReportedIssue] {
  let capture = IssueCapture()
  try IssueCapture.$current.withValue(capture) { try operation() }
  return capture.issues
}

final class IssueCapture: Sendable {
  @TaskLocal static var current: IssueCapture?

  private let storage = Mutex<[ReportedIssue]>([])

  var issues: [ReportedIssue] { storage.withLock { $0 } }
  func append(_ issue: ReportedIssue) { storage.withLock { $0.append(issue) } }
}

/// Finds `XCTFail` at run time, so the module does not link XCTest into apps.
private enum XCTestBridge {
  typealias XCTFail = @convention(thin) (String, StaticString, UInt) -> Void

  static let xctFail: XCTFail? = {
    guard
      let handle = dlopen(nil, RTLD_NOW),
      let symbol = dlsym(handle, "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF")
    else { return nil }
    return unsafeBitCast(symbol, to: XCTFail.self)
  }()
}

struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
  }
}
