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

  /// How far the lines are indented: under the step line's time.
  static let indent = "          "

  func lines(before: JSONValue?, after: JSONValue?) -> [String] {
    let json = JSONRenderer(style: style)
    let show = { (value: JSONValue?) in
      value.map { $0 == .null ? "nil" : json.inline($0, limit: 40) } ?? "nil"
    }
    let name = path.isRoot ? "(the whole state)" : path.description
    let old = before == .null ? nil : before
    let new = after == .null ? nil : after
    guard let old, let new, isContainer(old) || isContainer(new) else {
      let mark = old == nil ? style.paint("+", .green) : new == nil ? style.paint("-", .red) : nil
      if let mark { return [Self.indent + mark + " \(name): " + show(old ?? new)] }
      return [Self.indent + style.paint("~", .yellow) + " \(name): \(show(old)) → \(show(new))"]
    }
    let renderer = PatchRenderer(style: style, base: path.isRoot ? "" : path.description)
    return renderer.lines(JSONPatch.diff(from: old, to: new), indent: Self.indent)
  }

  private func isContainer(_ value: JSONValue) -> Bool {
    switch value {
    case .object, .array: true
    default: false
    }
  }
}
