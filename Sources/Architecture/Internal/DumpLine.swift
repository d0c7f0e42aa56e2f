/// One line of a dump, kept with the structure that ``diff(_:_:)`` aligns and folds by.
///
/// A dump is built as lines rather than as one string so that the diff can match lines without
/// the parts that shift when a sibling is inserted (collection indices, separating commas) and
/// can fold an unchanged block into one line.
package struct DumpLine: Sendable, Equatable {
  /// The nesting level; each level is indented by two spaces.
  package var depth: Int
  /// What precedes the value on this line: `"count: "`, `"[3]: "`, `"\"key\": "` or nothing.
  package var label: String
  /// Whether `label` is a collection index, which a diff ignores when matching lines because
  /// inserting one element renumbers every element after it.
  package var labelIsIndex: Bool
  /// The value's text on this line, without the comma that separates it from a next sibling.
  package var text: String
  /// Whether a comma follows `text`, separating this entry from the next one.
  package var hasComma: Bool
  /// For a line that opens a block, the text that closes it: `)`, `]`, `])` or `"""`.
  package var closing: String?
  /// Whether this line closes a block.
  package var isClosing: Bool

  /// Creates a line.
  package init(
    depth: Int,
    label: String = "",
    labelIsIndex: Bool = false,
    text: String,
    hasComma: Bool = false,
    closing: String? = nil,
    isClosing: Bool = false
  ) {
    self.depth = depth
    self.label = label
    self.labelIsIndex = labelIsIndex
    self.text = text
    self.hasComma = hasComma
    self.closing = closing
    self.isClosing = isClosing
  }

  /// The line as printed, indented by two spaces a level plus `indent` spaces; a blank line
  /// (in a multi-line string) prints without indentation, so no line ends in spaces.
  package func rendered(indent: Int = 0) -> String {
    if label.isEmpty, text.isEmpty, !hasComma { return "" }
    var result = String(repeating: " ", count: indent + 2 * depth)
    result += label
    result += text
    if hasComma { result += "," }
    return result
  }
}
