/// The one layout of a ``SwiftValue``: for people, on a line, cut to a width, or over many
/// lines, colour a parameter (`paint`), so the tool paints atoms by kind and tests read them
/// plain; and for the compiler, as a generated test's source (``source(indent:inlineLimit:)``).
extension SwiftValue {
  /// The value on one line, whole.
  package var text: String { line() }

  /// The value on one line, each atom as `paint` writes it; a collection or call with more than
  /// `limit` items shows that many and `… N more`.
  package func line(
    limit: Int? = nil, paint: (String, Atom) -> String = { text, _ in text }
  ) -> String {
    func cut<T>(_ items: [T], _ text: (T) -> String) -> String {
      let shown = limit.map { min($0, items.count) } ?? items.count
      var parts = items.prefix(shown).map(text)
      if shown < items.count { parts.append("… \(items.count - shown) more") }
      return parts.joined(separator: ", ")
    }
    switch self {
    case .atom(let text, let kind):
      return paint(text, kind)
    case .list(let open, let elements, let close):
      return open + cut(elements) { $0.line(limit: limit, paint: paint) } + close
    case .dictionary(let entries):
      if entries.isEmpty { return "[:]" }
      return "["
        + cut(entries) {
          $0.key.line(limit: limit, paint: paint) + ": " + $0.value.line(limit: limit, paint: paint)
        } + "]"
    case .call(let name, let arguments):
      if arguments.isEmpty, name.hasPrefix(".") { return name }
      return name + "("
        + cut(arguments) {
          ($0.label.map { $0 + ": " } ?? "") + $0.value.line(limit: limit, paint: paint)
        } + ")"
    case .code:
      return source()
    }
  }

  /// The value on one line, collections cut to three items and the whole cut to `limit`
  /// characters (counted without colour) with a `…`.
  package func inline(
    limit: Int = 72, paint: (String, Atom) -> String = { text, _ in text }
  ) -> String {
    let plain = line(limit: 3)
    if plain.count <= limit { return line(limit: 3, paint: paint) }
    return Self.cut(plain, to: limit)
  }

  /// The value on one line, whole when it fits in `limit` characters, so that it reads back;
  /// otherwise as ``inline(limit:paint:)`` cuts it.
  package func inlineWhole(
    limit: Int, paint: (String, Atom) -> String = { text, _ in text }
  ) -> String {
    let plain = line()
    if plain.count <= limit { return line(paint: paint) }
    return inline(limit: limit, paint: paint)
  }

  /// `text`'s first `limit - 1` characters and one `…`: a cut that lands on an ellipsis the
  /// value already holds (a collection cut short) does not double it.
  package static func cut(_ text: String, to limit: Int) -> String {
    var kept = text.prefix(max(0, limit - 1))
    while let last = kept.last, last == "…" || last == " " || last == "," { kept.removeLast() }
    return kept + "…"
  }

  /// The value over as many lines as it needs, indented by two spaces a level: whatever fits in
  /// `width` columns stays on one line, and a collection or call of more than `maximumItems`
  /// items shows its first `shownItems` and `… N more`, which `dim` writes.
  package func block(
    width: Int = 100, maximumItems: Int = 12, shownItems: Int = 8,
    paint: (String, Atom) -> String = { text, _ in text }, dim: (String) -> String = { $0 }
  ) -> String {
    var lines: [String] = []
    func lay(_ value: SwiftValue, indent: String, lead: String, trail: String) {
      // The items of a collection or call, each as a lead (a label or key) and a value; a
      // scalar too long for the line (a long string) is written whole all the same.
      let (open, close, items): (String, String, [(lead: String, value: SwiftValue)])
      switch value {
      case _ where value.line().count <= width - indent.count - lead.count - trail.count,
        .atom, .code:
        return lines.append(indent + lead + value.line(paint: paint) + trail)
      case .list(let opening, let elements, let closing):
        (open, close, items) = (opening, closing, elements.map { ("", $0) })
      case .dictionary(let entries):
        let keyed = entries.map { ($0.key.line(paint: paint) + ": ", $0.value) }
        (open, close, items) = ("[", "]", keyed)
      case .call(let name, let arguments):
        (open, close, items) = (
          name + "(", ")", arguments.map { ($0.label.map { $0 + ": " } ?? "", $0.value) }
        )
      }
      lines.append(indent + lead + open)
      let inner = indent + "  "
      let shown = items.count > maximumItems ? shownItems : items.count
      for (position, item) in items.prefix(shown).enumerated() {
        let trail = position == items.count - 1 ? "" : ","
        lay(item.value, indent: inner, lead: item.lead, trail: trail)
      }
      if shown < items.count { lines.append(inner + dim("… \(items.count - shown) more")) }
      lines.append(indent + close + trail)
    }
    lay(self, indent: "", lead: "", trail: "")
    return lines.joined(separator: "\n")
  }
}

/// The compilable mode of the layout: a generated test's source, laid out as a person wraps it.
extension SwiftValue {
  /// The value as Swift source, at `indent` levels of two spaces: an array literal or an
  /// initializer on one line when it fits (70 and 76 characters), else as many items to a
  /// line as fit in 100 columns; a case's payload on its line; a decoded value's JSON
  /// longer than `inlineLimit` over several lines.
  package func source(indent: Int = 0, inlineLimit: Int = 60) -> String {
    func written(_ arguments: [Argument], indent: Int) -> [String] {
      arguments.map { ($0.label.map { $0 + ": " } ?? "") + $0.value.source(indent: indent) }
    }
    switch self {
    case .atom(let text, _):
      return text
    case .list(_, let elements, _):
      let items = elements.map { $0.source(indent: indent + 1) }
      return Self.laidOut("[", items, "]", indent: indent, limit: 70, lastComma: true)
    case .dictionary(let entries):
      if entries.isEmpty { return "[:]" }
      let items = entries.map {
        $0.key.source(indent: indent + 1) + ": " + $0.value.source(indent: indent + 1)
      }
      // NB: string keys wrap as an array's elements do, other keys one entry a line.
      let stringKeys = entries.allSatisfy {
        if case .atom(_, .string) = $0.key { true } else { false }
      }
      return Self.laidOut(
        "[", items, "]", indent: indent, limit: 70, lastComma: true, alone: !stringKeys)
    case .call(let name, let arguments) where name.hasPrefix("."):
      // A case's payload stays on its line, at its indent.
      if arguments.isEmpty { return name }
      return name + "(" + written(arguments, indent: indent).joined(separator: ", ") + ")"
    case .call(let name, let arguments):
      let items = written(arguments, indent: indent + 1)
      return Self.laidOut(name + "(", items, ")", indent: indent, limit: 76, lastComma: false)
    case .code(let code):
      return code.source(indent: indent, inlineLimit: inlineLimit)
    }
  }

  /// `open`, the items and `close` on one line when that is at most `limit` characters, else
  /// over lines at `indent + 1`, as many items to a line as fit in 100 columns (one when
  /// `alone`), each with its comma but the last unless `lastComma`.
  static func laidOut(
    _ open: String, _ items: [String], _ close: String, indent: Int, limit: Int,
    lastComma: Bool, alone: Bool = false
  ) -> String {
    let single = open + items.joined(separator: ", ") + close
    if single.count <= limit, !single.contains("\n") { return single }
    let pad = String(repeating: "  ", count: indent + 1)
    let lines = packed(items, width: alone ? 0 : 100 - pad.count, lastComma: lastComma)
    return open + "\n" + lines.map { pad + $0 + "\n" }.joined()
      + String(repeating: "  ", count: indent) + close
  }

  /// `items`, comma-separated, as many to a line as fit in `width` columns, as a person wraps
  /// arguments; an item that spans lines stands on its own. The last item takes a comma when
  /// `lastComma` (an array or dictionary literal). A line after the first of such an item is
  /// indented already, as it was laid out.
  static func packed(_ items: [String], width: Int, lastComma: Bool) -> [String] {
    var lines: [String] = []
    var line = ""
    for (position, item) in items.enumerated() {
      let comma = position < items.count - 1 || lastComma ? "," : ""
      let overflows = !line.isEmpty && line.count + 1 + item.count + comma.count > width
      if item.contains("\n") || overflows {
        if !line.isEmpty { lines.append(line) }
        line = ""
      }
      if item.contains("\n") {
        lines.append(item + comma)
        continue
      }
      line += (line.isEmpty ? "" : " ") + item + comma
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// Whether `value`, written as Swift, already has the type `type` without an `as`: a
  /// literal of its default type, or a call of the type's own name (`UUID(0)`).
  static func hasOwnType(_ value: String, _ type: String) -> Bool {
    switch type {
    case "String": return value.hasPrefix("\"") && value.hasSuffix("\"") && !value.contains("\n")
    case "Bool": return value == "true" || value == "false"
    case "Int": return !value.isEmpty && value.drop { $0 == "-" }.allSatisfy(\.isNumber)
    default:
      guard value.hasPrefix(type + "("), value.hasSuffix(")") else { return false }
      return type.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." }
    }
  }

  /// Compact JSON text broken after commas outside strings, into lines of at most `width`
  /// characters where the tokens allow: JSON allows a line break between any two tokens.
  static func wrapped(_ text: String, width: Int) -> [String] {
    var pieces: [Substring] = []
    var start = text.startIndex
    var inString = false
    var escaped = false
    for index in text.indices {
      let character = text[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "," {
        let end = text.index(after: index)
        pieces.append(text[start..<end])
        start = end
      }
    }
    pieces.append(text[start...])
    var lines: [String] = []
    var line = ""
    for piece in pieces {
      if !line.isEmpty, line.count + piece.count > width {
        lines.append(line)
        line = ""
      }
      line += piece
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}

extension SwiftValue.Code {
  /// The form as Swift source at `indent`; see ``SwiftValue/source(indent:inlineLimit:)``.
  func source(indent: Int, inlineLimit: Int) -> String {
    let end = String(repeating: "  ", count: indent)
    let pad = end + "  "
    switch self {
    case .decoded(let json, _):
      if json.count <= inlineLimit { return "try decoded(\(SwiftValue.rawString(json)))" }
      let lines = SwiftValue.wrapped(json, width: max(40, 100 - pad.count))
      let hashes = SwiftValue.hashes(for: json)
      let body = lines.map { pad + $0 }.joined(separator: "\n")
      return "try decoded(\n\(pad)\(hashes)\"\"\"\n\(body)\n\(pad)\"\"\"\(hashes)\n\(end))"
    case .stack(let name, let entries):
      if entries.isEmpty { return "\(name)()" }
      var lines = ["{", "\(pad)var stack = \(name)()"]
      for entry in entries {
        lines.append(
          "\(pad)stack[id: \(entry.key.source())] = " + entry.value.source(indent: indent + 1))
      }
      return (lines + ["\(pad)return stack", end + "}()"]).joined(separator: "\n")
    case .assembled(let name, let members):
      guard !members.isEmpty else { return "\(name)()" }
      let items = members.map { member in
        let value = member.value.source(indent: indent + 1)
        if member.value == .atom("nil", .keyword) { return "\"\(member.label)\": nil" }
        let typed =
          SwiftValue.hasOwnType(value, member.type) ? value : "\(value) as \(member.type)"
        return "\"\(member.label)\": \(typed)"
      }
      // As many entries to a line as fit, as a person wraps a dictionary literal.
      return SwiftValue.laidOut(
        "assemble(\(name).self, [", items, "])", indent: indent, limit: 72 - 2 * indent,
        lastComma: true)
    case .alert(let opener, let title, let buttons, let message):
      let literal = SwiftValue.stringLiteral
      var lines = ["\(opener) {", "\(pad)TextState(\(literal(title)))", "\(end)} actions: {"]
      for button in buttons {
        var arguments: [String] = []
        if let role = button.role { arguments.append("role: .\(role)") }
        if let action = button.action {
          arguments.append("action: " + action.source(indent: indent + 1))
        }
        let call =
          arguments.isEmpty ? "ButtonState" : "ButtonState(\(arguments.joined(separator: ", ")))"
        let text = "TextState(\(literal(button.label)))"
        // One line when it fits, as `ButtonState(role: .cancel) { TextState("Not now") }`.
        if pad.count + call.count + text.count + 6 <= 92, !call.contains("\n") {
          lines.append("\(pad)\(call) { \(text) }")
        } else {
          lines.append("\(pad)\(call) {\n\(pad)  \(text)\n\(pad)}")
        }
      }
      if let message { lines += ["\(end)} message: {", "\(pad)TextState(\(literal(message)))"] }
      return (lines + ["\(end)}"]).joined(separator: "\n")
    }
  }
}
