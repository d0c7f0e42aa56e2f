import Recorder
import TraceJSON

/// The lines `log --changed` prints under a step: how the value at the path changed, old → new,
/// through the shared renderers, compactly enough to watch a session scroll by, as TCA's
/// `_printChanges` is watched.
///
/// ```
///     12  0.004 s   send          .posted(account: "savings", cents: 12)
///           ~ /balances/savings: 18 → 30
/// ```
///
/// A value whose preview shows it whole changes on one line; a bigger one as the changes
/// inside it, one line each, as `diff` prints them.
struct ChangeLines {
  let path: StatePath
  let style: Style
  /// The trace's types, and its state's type, for values in Swift form.
  let schema: TypeSchema
  let stateType: String

  /// How far the lines are indented: under the step line's time.
  static let indent = "          "

  /// The lines for the value at the path going from `before` to `after`, and for the hidden
  /// values under it that changed in place (`redacted`, relative to the path).
  func lines(
    before: JSONValue?, after: JSONValue?, redacted: [JSONPointer] = []
  ) -> [String] {
    let type = schema.valueType(at: path, in: stateType)
    let old = before == .null ? nil : before
    let new = after == .null ? nil : after
    guard let old, let new else {
      let name = path.isRoot ? "(the whole state)" : path.description
      let swift = SwiftValueRenderer(style: style)
      let shown = (old ?? new).map { swift.inline(SwiftValue($0, type: type, schema: schema), limit: 40) }
      let mark = old == nil ? style.paint("+", .green) : style.paint("-", .red)
      return [Self.indent + mark + " \(name): " + (shown ?? "nil")]
    }
    var changes = StateChange.changes(
      JSONPatch.diff(from: old, to: new), from: old, to: new, type: type, schema: schema)
    changes += redacted.map { StateChange(kind: .redacted, path: StatePath($0)) }
    let renderer = PatchRenderer(style: style, base: path.isRoot ? "" : path.description)
    return renderer.lines(changes, indent: Self.indent)
  }

  /// The paths under `path` at which `patch` says a hidden value changed in place, relative to
  /// `path` (found in `state`, the state after the patch).
  static func redactedChanges(
    in patch: JSONPatch, under path: StatePath, in state: JSONValue
  ) -> [JSONPointer] {
    let hidden = StateChange.redactedChanges(in: patch)
    guard !hidden.isEmpty, let base = path.pointer(in: state) else { return [] }
    return hidden.compactMap { pointer in
      guard pointer.tokens.starts(with: base.tokens) else { return nil }
      return JSONPointer(tokens: Array(pointer.tokens.dropFirst(base.tokens.count)))
    }
  }
}
