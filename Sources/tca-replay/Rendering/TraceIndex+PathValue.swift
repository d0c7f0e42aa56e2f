import Recorder
import TraceJSON

extension TraceIndex {
  /// The value at `path` in `state`, `null` when it is `nil` or absent.
  ///
  /// An absent value the trace's types cannot vouch for is `nil` too, after a line through
  /// `note`; a path the state's type cannot have throws (see `Documentation/CommandLine.md`).
  func value(
    at path: StatePath, in state: JSONValue, note: (String) -> Void
  ) throws(UsageError) -> JSONValue {
    switch lookUp(path, in: state) {
    case .value(let value):
      return value
    case .absent(let checked):
      if !checked {
        note(
          "note: nothing is at '\(path)', and the trace's types cannot tell whether "
            + "\(TypeNameText.short(header.stateType)) can have it: shown as nil\n")
      }
      return .null
    case .impossible(let message):
      throw UsageError(message: message.escapingControlCharacters)
    }
  }
}

/// Type names as the tool shows them.
enum TypeNameText {
  /// `Shop.State` for `ShopApp.Shop.State`: without the module.
  static func short(_ type: String) -> String {
    let base = type.prefix { $0 != "<" }
    let components = base.split(separator: ".")
    guard components.count > 1 else { return type.escapingControlCharacters }
    return (components.dropFirst().joined(separator: ".") + type.dropFirst(base.count))
      .escapingControlCharacters
  }
}
