import Recorder
import TraceJSON

/// Renders a JSON Patch as one line per change: `~ /path: old → new`, `+ /path: new`,
/// `- /path: old`.
///
/// The old values come from the `test` operation the recorder writes before every `replace`
/// and `remove`; the `test` operations are not shown.
struct PatchRenderer {
  var style: Style
  /// The path the patch's paths are relative to, shown before them: `log --changed`'s path.
  var base = ""

  func lines(_ patch: JSONPatch, indent: String = "  ") -> [String] {
    let json = JSONRenderer(style: style)
    var tested: [JSONPointer: JSONValue] = [:]
    var lines: [String] = []
    for operation in patch.operations {
      switch operation {
      case .test(let path, let value):
        tested[path] = value
      case .replace(let path, let value):
        let old = tested.removeValue(forKey: path).map { json.inline($0, limit: 40) + " → " } ?? ""
        lines.append(
          indent + style.paint("~", .yellow) + " \(show(path)): " + old + json.inline(value)
        )
      case .add(let path, let value):
        lines.append(indent + style.paint("+", .green) + " \(show(path)): " + json.inline(value))
      case .remove(let path):
        let old = tested.removeValue(forKey: path).map { ": " + json.inline($0) } ?? ""
        lines.append(indent + style.paint("-", .red) + " \(show(path))" + old)
      case .move(let from, let path):
        lines.append(indent + style.paint(">", .blue) + " \(show(from)) moved to \(show(path))")
      case .copy(let from, let path):
        lines.append(indent + style.paint("+", .green) + " \(show(path)): a copy of \(show(from))")
      case .splice(let path, let offset, let old, let new):
        // Only the changed run of a long string: `~ /path @byte: "old" → "new"`.
        lines.append(
          indent + style.paint("~", .yellow) + " \(show(path)) @\(offset): "
            + json.inline(.string(old), limit: 40) + " → " + json.inline(.string(new))
        )
      }
    }
    return lines.isEmpty ? [indent + style.paint("(no change)", .dim)] : lines
  }

  private func show(_ path: JSONPointer) -> String {
    // Keys come from the trace: one may hold a line break.
    if !base.isEmpty { return (base + path.description).escapingControlCharacters }
    return path.isRoot ? "(the whole state)" : path.description.escapingControlCharacters
  }
}
