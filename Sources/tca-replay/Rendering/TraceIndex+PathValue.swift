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
            + "\(TypeName.displayName(header.stateType).escapingControlCharacters) can have it: shown as nil\n")
      }
      return .null
    case .impossible(let message):
      throw UsageError(message: message.escapingControlCharacters)
    }
  }
}
