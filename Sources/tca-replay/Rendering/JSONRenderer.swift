import Recorder
import TraceJSON

/// Renders JSON values for people: indented, with long collections cut short, and coloured
/// when the style says so.
///
/// Scripts should use `--json`, which prints values whole.
struct JSONRenderer {
  var style: Style
  /// Lines are kept within this many columns where a value allows it.
  var width = 100
  /// Collections with more elements than this show only their first `shownItems`.
  var maximumItems = 12
  var shownItems = 8

  /// A value over as many lines as it needs.
  func block(_ value: JSONValue) -> String {
    var lines: [String] = []
    block(value, indent: "", lead: "", trail: "", into: &lines)
    return lines.joined(separator: "\n")
  }

  private func block(
    _ value: JSONValue, indent: String, lead: String, trail: String, into lines: inout [String]
  ) {
    let flat = compact(value, style: .plain, limit: nil)
    let room = width - indent.count - lead.count - trail.count
    if flat.count <= room {
      lines.append(indent + lead + compact(value, style: style, limit: nil) + trail)
      return
    }
    let inner = indent + "  "
    switch value {
    case .array(let elements):
      lines.append(indent + lead + "[")
      let shown = elements.count > maximumItems ? shownItems : elements.count
      for (position, element) in elements.prefix(shown).enumerated() {
        let last = position == elements.count - 1
        block(element, indent: inner, lead: "", trail: last ? "" : ",", into: &lines)
      }
      if shown < elements.count {
        lines.append(inner + style.paint("… \(elements.count - shown) more", .dim))
      }
      lines.append(indent + "]" + trail)
    case .object(let object):
      lines.append(indent + lead + "{")
      let keys = object.keys
      let shown = keys.count > maximumItems ? shownItems : keys.count
      for (position, key) in keys.prefix(shown).enumerated() {
        let last = position == keys.count - 1
        block(
          object[key]!, indent: inner, lead: keyText(key) + ": ", trail: last ? "" : ",",
          into: &lines
        )
      }
      if shown < keys.count {
        lines.append(inner + style.paint("… \(keys.count - shown) more members", .dim))
      }
      lines.append(indent + "}" + trail)
    default:
      // A scalar too long for the line: a long string. Print it whole.
      lines.append(indent + lead + compact(value, style: style, limit: nil) + trail)
    }
  }

  /// A value on one line, collections cut to a few elements and the whole cut to `limit`
  /// characters.
  func inline(_ value: JSONValue, limit: Int = 72) -> String {
    let plain = compact(value, style: .plain, limit: 3)
    if plain.count <= limit { return compact(value, style: style, limit: 3) }
    return String(plain.prefix(limit - 1)) + "…"
  }

  private func compact(_ value: JSONValue, style: Style, limit: Int?) -> String {
    switch value {
    case .null, .bool:
      return style.paint(value.jsonString, .magenta)
    case .integer, .unsignedInteger, .double:
      return style.paint(value.jsonString, .cyan)
    case .string:
      return style.paint(value.jsonString, .green)
    case .array(let elements):
      let shown = limit.map { elements.count > $0 ? $0 : elements.count } ?? elements.count
      var parts = elements.prefix(shown).map { compact($0, style: style, limit: limit) }
      if shown < elements.count { parts.append("… \(elements.count - shown) more") }
      return "[" + parts.joined(separator: ", ") + "]"
    case .object(let object):
      let keys = object.keys
      let shown = limit.map { keys.count > $0 ? $0 : keys.count } ?? keys.count
      var parts = keys.prefix(shown).map {
        keyText($0) + ": " + compact(object[$0]!, style: style, limit: limit)
      }
      if shown < keys.count { parts.append("… \(keys.count - shown) more") }
      return parts.isEmpty ? "{}" : "{ " + parts.joined(separator: ", ") + " }"
    }
  }

  private func keyText(_ key: String) -> String {
    JSONValue.string(key).jsonString
  }
}
