/// Why a JSON Patch could not be read, applied or inverted.
///
/// The description names the operation and what went wrong, for example
/// `operation 3 (replace /todos/2/title): path does not exist`.
public struct JSONPatchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Hashable, Sendable {
    /// The patch document is not a JSON array.
    case notAnArray
    /// An operation object is malformed; the text says how (missing member, unknown op, …).
    case malformedOperation(String)
    /// The target location does not exist.
    case pathNotFound
    /// The container that should hold the target location does not exist.
    case parentNotFound
    /// The `from` location of a `move` or `copy` does not exist.
    case fromNotFound
    /// The container at the path's parent is neither an object nor an array.
    case parentNotAContainer(String)
    /// A token used on an array is not a valid index (`01`, `-1`, `x`, or `-` where not allowed).
    case invalidArrayIndex(String)
    /// An array index is beyond the array.
    case indexOutOfRange(index: Int, count: Int)
    /// A `move` whose `from` is an ancestor of its `path`.
    case moveIntoOwnChild
    /// A `remove` of the whole document.
    case cannotRemoveRoot
    /// A `test` found a different value (`actual`, or `nil` if nothing is there).
    case testFailed(expected: JSONValue, actual: JSONValue?)
    /// The patch cannot be inverted; the text says why.
    case notReversible(String)
    /// The patch's `copy` operations copy more than `limit` bytes of JSON, together (see
    /// ``JSONPatch/copyAllowance``).
    case copiesTooMuch(limit: Int)
    /// A `splice` did not find its old text where it said (the detail says what was there).
    case spliceFailed(String)
  }

  /// The position of the operation in the patch, or `nil` for a problem with the whole patch.
  public var operationIndex: Int?
  /// The operation's name (`add`, `remove`, …), when known.
  public var operationName: String?
  /// The operation's path as text, when known.
  public var path: String?
  /// What went wrong.
  public var reason: Reason

  /// Makes an error.
  public init(
    operationIndex: Int? = nil,
    operationName: String? = nil,
    path: String? = nil,
    reason: Reason
  ) {
    self.operationIndex = operationIndex
    self.operationName = operationName
    self.path = path
    self.reason = reason
  }

  /// One line: `operation 3 (replace /todos/2/title): path does not exist`.
  public var description: String {
    var prefix = ""
    if let operationIndex {
      prefix = "operation \(operationIndex)"
      let shownPath = path.map { $0.isEmpty ? "\"\"" : $0 }
      let detail = [operationName, shownPath].compactMap { $0 }.joined(separator: " ")
      if !detail.isEmpty { prefix += " (\(detail))" }
      prefix += ": "
    }
    return prefix + reason.message
  }
}

extension JSONPatchError.Reason {
  /// The reason in words, without the operation.
  public var message: String {
    switch self {
    case .notAnArray:
      "a JSON Patch must be an array of operations"
    case .malformedOperation(let detail):
      "malformed operation: \(detail)"
    case .pathNotFound:
      "path does not exist"
    case .parentNotFound:
      "the parent of the path does not exist"
    case .fromNotFound:
      "from location does not exist"
    case .parentNotAContainer(let typeName):
      "the parent of the path is a \(typeName), not an object or array"
    case .invalidArrayIndex(let token):
      "\(JSONValue.string(token)) is not a valid array index"
    case .indexOutOfRange(let index, let count):
      "array index \(index) is out of range for an array of \(count) elements"
    case .moveIntoOwnChild:
      "cannot move a value into one of its own children"
    case .cannotRemoveRoot:
      "cannot remove the whole document"
    case .testFailed(let expected, let actual):
      "test failed: expected \(Self.abbreviate(expected)), found "
        + (actual.map(Self.abbreviate) ?? "nothing")
    case .notReversible(let detail):
      "not reversible: \(detail)"
    case .copiesTooMuch(let limit):
      "the patch copies more than \(limit) bytes of JSON, more than a patch may produce "
        + "(as much as it holds, or 4 KiB)"
    case .spliceFailed(let detail):
      "splice failed: \(detail)"
    }
  }

  /// Compact JSON text, cut to a readable length.
  private static func abbreviate(_ value: JSONValue) -> String {
    let text = value.jsonString
    guard text.count > 80 else { return text }
    return String(text.prefix(77)) + "..."
  }
}
