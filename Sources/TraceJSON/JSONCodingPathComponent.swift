/// One step of a coding path, kept unboxed until someone asks for the full `codingPath`.
///
/// The encoder and decoder build a tree of nodes, each holding the step from its parent, so
/// that encoding a value never allocates a path array; `codingPath` is assembled on demand
/// (for errors and for types that read it).
package enum JSONCodingPathComponent {
  /// A member of a keyed container.
  case key(any CodingKey)
  /// An element of an unkeyed container.
  case index(Int)

  package var codingKey: any CodingKey {
    switch self {
    case .key(let key): key
    case .index(let index): JSONCodingKey(intValue: index)
    }
  }

  /// Renders a coding path for people: `todos[3].title`, or `the top level` when empty.
  package static func render(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the top level" }
    var text = ""
    for key in path {
      if let index = key.intValue, key.stringValue == "Index \(index)" {
        text += "[\(index)]"
      } else {
        if !text.isEmpty { text += "." }
        text += key.stringValue
      }
    }
    return text
  }
}
