import Recorder
import TraceJSON

/// Renders a step's changes as one line each: `~ /path: old → new`, `+ /path: new`,
/// `- /path: old`, `~ /path: changed, value redacted` for a hidden value, values in Swift form
/// and dictionary entries by key (see ``StateChange``).
struct PatchRenderer {
  var style: Style
  /// The path the patch's paths are relative to, shown before them: `log --changed`'s path.
  var base = ""

  func lines(_ changes: [StateChange], indent: String = "  ") -> [String] {
    let swift = SwiftValueRenderer(style: style)
    var lines: [String] = []
    for change in changes {
      let path = show(change.path)
      let old = change.old.map { swift.inline($0, limit: 40) }
      let new = change.new.map { swift.inline($0) }
      switch change.kind {
      case .changed:
        lines.append(
          indent + style.paint("~", .yellow) + " \(path): " + (old.map { $0 + " → " } ?? "")
            + (new ?? "nil"))
      case .added:
        lines.append(indent + style.paint("+", .green) + " \(path): " + (new ?? "nil"))
      case .removed:
        let old = change.old.map { ": " + swift.inline($0) } ?? ""
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
          indent + style.paint("~", .yellow) + " \(path) @\(offset): "
            + (change.old.map { swift.inline($0, limit: 40) } ?? "") + " → " + (new ?? ""))
      }
    }
    return lines.isEmpty ? [indent + style.paint("(no change)", .dim)] : lines
  }

  private func show(_ path: StatePath) -> String {
    // Keys come from the trace: one may hold a line break.
    if !base.isEmpty { return (base + path.description).escapingControlCharacters }
    return path.isRoot ? "(the whole state)" : path.description.escapingControlCharacters
  }
}

extension TraceIndex {
  /// What `step` changed, in Swift form: its patch read against the states around it.
  func changes(of step: TraceStep) -> [StateChange] {
    // A step after lost steps has no state before it to read; its patch's tests say enough.
    let before =
      (try? state(afterStep: step.index == firstStep ? nil : step.index - 1)) ?? .null
    let after = (try? state(afterStep: step.index)) ?? .null
    return StateChange.changes(
      step.patch, from: before, to: after, type: header.stateType, schema: typeSchema())
  }

  /// `json`, found at `path` in a state of this trace, in Swift form; its short UUIDs tell
  /// apart every UUID in `state`.
  func swiftValue(_ json: JSONValue, at path: StatePath, in state: JSONValue? = nil) -> SwiftValue {
    let schema = typeSchema()
    let type = schema.valueType(at: path, in: header.stateType)
    return SwiftValue(json, type: type, schema: schema) {
      state.map { SwiftValue.uuids(in: [$0]) } ?? []
    }
  }

  /// The Swift type at `path` in a state of this trace, if the trace's types say.
  func valueType(at path: StatePath) -> String? {
    typeSchema().valueType(at: path, in: header.stateType)
  }
}
