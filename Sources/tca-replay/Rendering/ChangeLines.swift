import Recorder
import TraceJSON

/// A step's changes, one line each (`~ /path: old → new`, `+ /path: new`, `- /path: old`,
/// `~ /path: changed, value redacted` for a hidden value changed in place), in
/// Swift form with dictionary entries by key (``StateChange``), under `show`, `diff`, `step` and
/// `log --changed`; there a value whose preview shows it whole changes on one line:
///
/// ```
///     12  0.004 s   send          .posted(account: "savings", cents: 12)
///           ~ /balances/savings: 18 → 30
/// ```
struct ChangeLines {
  let path: StatePath
  let style: Style
  /// The trace's types, and its state's type, for values in Swift form.
  let schema: TypeSchema
  let stateType: String

  /// How far `log --changed` indents the lines: under the step line's time.
  static let indent = "          "

  /// `log --changed`'s lines for the value at ``path``, from `before` to `after`, and for the
  /// hidden values under it that changed in place (`redacted`, relative to the path).
  func lines(
    before: JSONValue?, after: JSONValue?, redacted: [JSONPointer] = []
  ) -> [String] {
    let type = schema.valueType(at: path, in: stateType)
    let old = before == .null ? nil : before
    let new = after == .null ? nil : after
    guard let old, let new else {
      let name = path.isRoot ? "(the whole state)" : path.description
      let shown = (old ?? new).map {
        SwiftValue($0, type: type, schema: schema).inline(style: style, limit: 40)
      }
      let mark = old == nil ? style.paint("+", .green) : style.paint("-", .red)
      return [Self.indent + mark + " \(name): " + (shown ?? "nil")]
    }
    var changes = StateChange.changes(
      JSONPatch.diff(from: old, to: new), from: old, to: new, type: type, schema: schema)
    changes += redacted.map { StateChange(kind: .redacted, path: StatePath($0)) }
    return Self.lines(
      changes, style: style, base: path.isRoot ? "" : path.description, indent: Self.indent)
  }

  /// `changes`, one line each; `base` is the path theirs are relative to, shown before them.
  static func lines(
    _ changes: [StateChange], style: Style, base: String = "", indent: String = "  "
  ) -> [String] {
    func show(_ path: StatePath) -> String {
      // Keys come from the trace: one may hold a line break.
      if !base.isEmpty { return (base + path.description).escapingControlCharacters }
      return path.isRoot ? "(the whole state)" : path.description.escapingControlCharacters
    }
    var lines: [String] = []
    for change in changes {
      let path = show(change.path)
      let old = change.old.map { $0.inline(style: style, limit: 40) }
      let new = change.new.map { $0.inline(style: style) }
      switch change.kind {
      case .changed:
        lines.append(
          indent + style.paint("~", .yellow) + " \(path): " + (old.map { $0 + " → " } ?? "")
            + (new ?? "nil"))
      case .added:
        lines.append(indent + style.paint("+", .green) + " \(path): " + (new ?? "nil"))
      case .removed:
        let old = change.old.map { ": " + $0.inline(style: style) } ?? ""
        lines.append(indent + style.paint("-", .red) + " \(path)" + old)
      case .moved(let from):
        lines.append(indent + style.paint(">", .blue) + " \(show(from)) moved to \(path)")
      case .copied(let from):
        lines.append(indent + style.paint("+", .green) + " \(path): a copy of \(show(from))")
      case .redacted:
        // The value is hidden: only that it changed is known.
        lines.append(indent + style.paint("~", .yellow) + " \(path): changed, value redacted")
      case .spliced(let offset):
        // Only the changed run of a long string: `~ /path @byte: "old" → "new"`.
        lines.append(
          indent + style.paint("~", .yellow) + " \(path) @\(offset): " + (old ?? "") + " → "
            + (new ?? ""))
      }
    }
    return lines.isEmpty ? [indent + style.paint("(no change)", .dim)] : lines
  }

  /// The paths under `path` at which `patch` says a hidden value changed in place, relative to
  /// `path` (found in `state`, the state after the patch).
  static func redactedChanges(
    in patch: JSONPatch, under path: StatePath, in state: JSONValue
  ) -> [JSONPointer] {
    StateChange.redactedChanges(StateChange.redactedChanges(in: patch), under: path, in: state)
  }
}
