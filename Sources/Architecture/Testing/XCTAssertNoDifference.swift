/// Asserts that two values are equal, reporting a diff of their dumps when they are not.
///
/// ```swift
/// XCTAssertNoDifference(store.state.todos, [Todo(id: UUID(0), title: "Milk")])
/// ```
///
/// fails with:
///
/// ```
/// XCTAssertNoDifference failed: …
///
///     [
///       [0]: Todo(
///         id: UUID(00000000-0000-0000-0000-000000000000),
///   −     title: "Eggs"
///   +     title: "Milk"
///       )
///     ]
///
/// (First: −, Second: +)
/// ```
///
/// The failure goes through ``reportIssue(_:fileID:filePath:line:column:)``, so it fails XCTest
/// and Swift Testing tests alike.
public func XCTAssertNoDifference<T: Equatable>(
  _ expression1: @autoclosure () throws -> T,
  _ expression2: @autoclosure () throws -> T,
  _ message: @autoclosure () -> String = "",
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  func fail(_ failure: String) {
    reportIssue(failure, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  let first: T
  let second: T
  do {
    first = try expression1()
    second = try expression2()
  } catch {
    fail(#"XCTAssertNoDifference failed: threw error "\#(error)""#)
    return
  }
  guard first != second else { return }
  let message = message()
  let suffix = message.isEmpty ? "" : " - \(message)"
  guard let difference = diff(first, second) else {
    fail(
      """
      XCTAssertNoDifference failed: (\"\(first)\") is not equal to (\"\(second)\"), but their \
      dumps do not differ\(suffix)
      """
    )
    return
  }
  fail(
    """
    XCTAssertNoDifference failed: …

    \(indented(difference, by: 2))

    (First: −, Second: +)\(suffix)
    """
  )
}

/// `text` with every line indented by `count` spaces.
func indented(_ text: String, by count: Int) -> String {
  let indent = String(repeating: " ", count: count)
  return text.split(separator: "\n", omittingEmptySubsequences: false)
    .map { $0.isEmpty ? "" : indent + $0 }
    .joined(separator: "\n")
}
