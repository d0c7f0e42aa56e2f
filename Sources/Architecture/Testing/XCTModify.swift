/// Asserts that an optional holds a value, and modifies that value in place.
///
/// In a `TestStore` assertion it changes a presented child's state without unwrapping by hand:
///
/// ```swift
/// await store.send(.destination(.presented(.addContact(.setName("Blob"))))) {
///   XCTModify(&$0.destination) { $0.name = "Blob" }
/// }
/// ```
///
/// It reports `XCTModify failed: expected to extract value of type "Wrapped?" …` when the
/// optional is `nil`, and, for an `Equatable` value, `XCTModify failed: expected "Wrapped" value
/// to be modified but it was unchanged.` when `body` changes nothing. Failures go through
/// ``reportIssue(_:fileID:filePath:line:column:)``, so XCTest and Swift Testing both see them.
public func XCTModify<Wrapped>(
  _ optional: inout Wrapped?,
  _ message: @autoclosure () -> String = "",
  _ body: (inout Wrapped) throws -> Void,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  XCTModify(
    &optional, case: AnyCasePath(embed: { $0 }, extract: { $0 }), message(), body,
    fileID: fileID, file: filePath, line: line, column: column
  )
}

/// Asserts that an enum value is in the case `casePath` names, and modifies its associated value
/// in place.
///
/// ```swift
/// await store.send(.addButtonTapped) {
///   XCTModify(&$0.destination, case: /Destination.State.addContact) { $0.name = "" }
/// }
/// ```
public func XCTModify<Root, Case>(
  _ root: inout Root,
  case casePath: AnyCasePath<Root, Case>,
  _ message: @autoclosure () -> String = "",
  _ body: (inout Case) throws -> Void,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  func fail(_ failure: String) {
    reportIssue(failure, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  guard var value = casePath.extract(from: root) else {
    let message = message()
    fail(
      """
      XCTModify failed: expected to extract value of type "\(modifyTypeName(Case.self))" from \
      "\(modifyTypeName(Root.self))"\(message.isEmpty ? "" : " - " + message) …

        Actual:
      \(indented(customDump(root), by: 4))
      """
    )
    return
  }
  let before = value
  do {
    try body(&value)
  } catch {
    fail("Threw error: \(error)")
    return
  }
  if XCTModifyLocals.isExhaustive, equalIfEquatable(before, value) == true {
    fail(
      """
      XCTModify failed: expected "\(modifyTypeName(Case.self))" value to be modified but it \
      was unchanged.
      """
    )
  }
  root = casePath.embed(value)
}

/// Settings of ``XCTModify(_:_:_:fileID:file:line:column:)`` for the code around it.
enum XCTModifyLocals {
  /// Whether an unchanged value is reported; a non-exhaustive `TestStore` turns it off.
  @TaskLocal static var isExhaustive = true
}

/// A type's name as XCTModify prints it: `Int?` for an optional, as CasePaths does.
private func modifyTypeName(_ type: Any.Type) -> String {
  let name = dumpTypeName(type)
  guard name.hasPrefix("Optional<"), name.hasSuffix(">") else { return name }
  return String(name.dropFirst("Optional<".count).dropLast()) + "?"
}
