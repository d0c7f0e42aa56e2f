import Recorder
import TraceJSON

/// Lays out a ``SwiftValue`` for people: indented, with long collections cut short, and
/// coloured when the style says so. `--json` output prints the JSON itself instead.
struct SwiftValueRenderer {
  var style: Style
  /// Lines are kept within this many columns where a value allows it.
  var width = 100
  /// Collections with more elements than this show only their first `shownItems`.
  var maximumItems = 12
  var shownItems = 8

  /// A value over as many lines as it needs.
  func block(_ value: SwiftValue) -> String {
    var lines: [String] = []
    block(value, indent: "", lead: "", trail: "", into: &lines)
    return lines.joined(separator: "\n")
  }

  /// A value on one line, collections cut to a few elements and the whole cut to `limit`
  /// characters.
  func inline(_ value: SwiftValue, limit: Int = 72) -> String {
    let plain = compact(value, style: .plain, limit: 3)
    if plain.count <= limit { return compact(value, style: style, limit: 3) }
    return Self.cut(plain, to: limit)
  }

  /// `text`'s first `limit - 1` characters and one `…`: a cut that lands on an ellipsis the
  /// value already holds (a collection cut short) does not double it.
  static func cut(_ text: String, to limit: Int) -> String {
    var kept = text.prefix(max(0, limit - 1))
    while let last = kept.last, last == "…" || last == " " || last == "," { kept.removeLast() }
    return kept + "…"
  }

  /// A value on one line, whole when it fits in `limit` characters, so that it reads back;
  /// otherwise as ``inline(_:limit:)`` cuts it.
  func inlineWhole(_ value: SwiftValue, limit: Int) -> String {
    let plain = compact(value, style: .plain, limit: nil)
    if plain.count <= limit { return compact(value, style: style, limit: nil) }
    return inline(value, limit: limit)
  }

  private func block(
    _ value: SwiftValue, indent: String, lead: String, trail: String, into lines: inout [String]
  ) {
    let flat = compact(value, style: .plain, limit: nil)
    let room = width - indent.count - lead.count - trail.count
    if flat.count <= room {
      lines.append(indent + lead + compact(value, style: style, limit: nil) + trail)
      return
    }
    let inner = indent + "  "
    // The items of a collection or call, each as a lead (a label or key) and a value.
    let open: String
    let close: String
    let items: [(lead: String, value: SwiftValue)]
    switch value {
    case .atom:
      // A scalar too long for the line: a long string. Print it whole.
      lines.append(indent + lead + compact(value, style: style, limit: nil) + trail)
      return
    case .list(let opening, let elements, let closing):
      (open, close, items) = (opening, closing, elements.map { ("", $0) })
    case .dictionary(let entries):
      open = "["
      close = "]"
      items = entries.map { (compact($0.key, style: style, limit: nil) + ": ", $0.value) }
    case .call(let name, let arguments):
      open = name + "("
      close = ")"
      items = arguments.map { ($0.label.map { $0 + ": " } ?? "", $0.value) }
    }
    lines.append(indent + lead + open)
    let shown = items.count > maximumItems ? shownItems : items.count
    for (position, item) in items.prefix(shown).enumerated() {
      let last = position == items.count - 1
      block(item.value, indent: inner, lead: item.lead, trail: last ? "" : ",", into: &lines)
    }
    if shown < items.count {
      lines.append(inner + style.paint("… \(items.count - shown) more", .dim))
    }
    lines.append(indent + close + trail)
  }

  /// ``SwiftValue/line(limit:paint:)`` with atoms coloured by their kind.
  private func compact(_ value: SwiftValue, style: Style, limit: Int?) -> String {
    value.line(limit: limit) { text, kind in
      switch kind {
      case .keyword: style.paint(text, .magenta)
      case .number: style.paint(text, .cyan)
      case .string: style.paint(text, .green)
      case .symbol: text
      }
    }
  }
}
