extension JSONPatch {
  /// One RFC 6902 operation.
  public enum Operation: Sendable, Hashable {
    /// Adds `value` at `path`: inserts into an array (the `-` token appends), sets an object
    /// member (replacing one that exists), or replaces the whole document at the root.
    case add(path: JSONPointer, value: JSONValue)
    /// Removes the value at `path`, which must exist.
    case remove(path: JSONPointer)
    /// Replaces the value at `path`, which must exist, with `value`.
    case replace(path: JSONPointer, value: JSONValue)
    /// Removes the value at `from` and adds it at `path`; `from` must not be an ancestor of
    /// `path`.
    case move(from: JSONPointer, path: JSONPointer)
    /// Adds a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails the patch unless the value at `path` equals `value` (JSON equality).
    case test(path: JSONPointer, value: JSONValue)
    /// tca-replay's extension (not RFC 6902): replaces the text `old`, which must start
    /// `offset` UTF-8 bytes into the string at `path`, with `new`. A change inside a long
    /// string (or `Data`'s base64 text) costs about the change, and carries its own test.
    case splice(path: JSONPointer, offset: Int, old: String, new: String)

    /// The RFC's name for the operation: `add`, `remove`, `replace`, `move`, `copy` or `test`.
    public var name: String {
      switch self {
      case .add: "add"
      case .remove: "remove"
      case .replace: "replace"
      case .move: "move"
      case .copy: "copy"
      case .test: "test"
      case .splice: "splice"
      }
    }

    /// The target location of the operation.
    public var path: JSONPointer {
      switch self {
      case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _),
        .move(_, let path), .copy(_, let path), .splice(let path, _, _, _):
        path
      }
    }

    /// The source location of a `move` or `copy`; `nil` for the other operations.
    public var from: JSONPointer? {
      switch self {
      case .move(let from, _), .copy(let from, _): from
      default: nil
      }
    }

    /// The value carried by `add`, `replace` and `test`; `nil` for the other operations
    /// (a `splice` carries text, not a value).
    public var value: JSONValue? {
      switch self {
      case .add(_, let value), .replace(_, let value), .test(_, let value): value
      default: nil
      }
    }
  }
}
