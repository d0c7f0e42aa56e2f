import Recorder
import TraceJSON

/// An action typed at the stepper's prompt or sent by the viewer's what-ifs: JSON, or any form
/// `log`, `show` and the stepper print, read back by ``SwiftValueReader``:
///
/// ```
/// .incrementButtonTapped                     {"incrementButtonTapped":{}}
/// .watered(zone: 1, liters: 13)              {"watered":{"zone":1,"liters":13}}
/// .stocked("flour", count: 2)                {"stocked":{"_0":"flour","count":2}}
/// .binding(.set(\.$draft, "X"))              {"binding":{"_0":{"set":{"keyPath":"$draft","value":"X"}}}}
/// .pinTapped(id: 0000…0001)                  {"pinTapped":{"id":"00000000-…-000000000001"}}
/// ```
///
/// Given the action's type and the trace's schema, values read as the printer wrote them: a
/// raw-valued enum's case, a `Duration`, a date; a shortened UUID is the recorded one with
/// those ends.
enum ActionText {
  struct ParseError: Error {
    var message: String
  }

  /// The action `text` names; `reader` knows the trace's types and the strings recorded near
  /// the step, and `type` is the action's type.
  static func parse(
    _ text: String, type: String? = nil, reader: SwiftValueReader = SwiftValueReader()
  ) throws(ParseError) -> JSONValue {
    let trimmed = text.trimmingWhitespace
    if trimmed.hasPrefix("{"), let json = try? JSONValue(parsing: Array(trimmed.utf8)) {
      return json
    }
    let value: JSONValue
    do throws(SwiftValue.ReadError) {
      value = try reader.json(trimmed, type: type)
    } catch {
      throw ParseError(message: error.message)
    }
    guard case .object = value else {
      throw ParseError(message: "an action is a case, like .increment or .set(3), or JSON")
    }
    return value
  }
}

extension TraceIndex {
  /// The action `text` names, typed at `step`: by the trace's action type and schema, with a
  /// shortened UUID or string restored from the strings the recording holds around the step.
  func readAction(_ text: String, near step: Int) throws(ActionText.ParseError) -> JSONValue {
    try ActionText.parse(text, type: header.actionType, reader: actionReader(near: step))
  }

  /// The trace's types and the strings recorded around `step`: its action and the states
  /// before and after it.
  func actionReader(near step: Int) -> SwiftValueReader {
    var values: [JSONValue] = []
    if stepIndices.contains(step) {
      if let action = try? self.step(at: step).action { values.append(action) }
      if let after = try? state(afterStep: step) { values.append(after) }
    }
    let previous = step - 1 >= firstStep ? step - 1 : nil
    if let before = try? state(afterStep: previous) { values.append(before) }
    return SwiftValueReader(schema: typeSchema(), known: SwiftValueReader.strings(in: values))
  }
}
