import Recorder

/// ``SwiftValue``'s layouts painted in the tool's colours: numbers cyan, strings green,
/// keywords magenta, a cut collection's `… N more` dim. `--json` prints the JSON instead.
extension SwiftValue {
  /// The value over as many lines as it needs, by
  /// ``block(width:maximumItems:shownItems:paint:dim:)``.
  func block(style: Style) -> String {
    block(paint: { style.paint($0, $1) }, dim: { style.paint($0, .dim) })
  }

  /// The value on one line, cut to `limit` characters, by ``inline(limit:paint:)``.
  func inline(style: Style, limit: Int = 72) -> String {
    inline(limit: limit) { style.paint($0, $1) }
  }
}

extension Style {
  /// `text`, an atom of `kind`, in its colour.
  func paint(_ text: String, _ kind: SwiftValue.Atom) -> String {
    switch kind {
    case .keyword: paint(text, .magenta)
    case .number: paint(text, .cyan)
    case .string: paint(text, .green)
    case .symbol: text
    }
  }
}
