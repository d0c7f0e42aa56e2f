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
