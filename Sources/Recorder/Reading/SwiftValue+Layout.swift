/// The one layout of a ``SwiftValue`` for people: on a line, cut to a width, or over many lines;
/// colour is a parameter (`paint`), so the tool paints atoms by kind and tests read them plain.
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
        .atom:
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
