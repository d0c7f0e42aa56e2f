import TraceJSON

/// Writes a value found in a state, or an action, in Swift form on one line: what `bisect`,
/// `verify` and `compare` print for a difference.
///
/// Without the trace's types (``untyped``) values read as their JSON would in Swift:
/// `["name": "milk"]`.
///
/// ```swift
/// let values = StateValueText(schema: trace.typeSchema(), stateType: header.stateType)
/// values.text(json, at: difference.path)  // 2026-01-15T09:20:01Z
/// ```
package struct StateValueText: Sendable {
  /// The trace's types.
  package var schema: TypeSchema
  /// The state's Swift type, when known.
  package var stateType: String?
  /// The action's Swift type, when known.
  package var actionType: String?
  /// Longer texts are cut here, with `…`.
  package var limit = 160

  /// Writes values by `schema`, states of `stateType` and actions of `actionType`.
  package init(schema: TypeSchema, stateType: String?, actionType: String? = nil) {
    self.schema = schema
    self.stateType = stateType
    self.actionType = actionType
  }

  /// Values without their types.
  package static let untyped = StateValueText(schema: TypeSchema(), stateType: nil)

  /// The value at `pointer` in a state; `(absent)` for none.
  package func text(_ json: JSONValue?, at pointer: JSONPointer) -> String {
    guard let json else { return "(absent)" }
    let type = TypeWalk.walk(pointer, root: stateType, schema: schema).0.type
    return cut(SwiftValue(json, type: type, schema: schema).text)
  }

  /// An action; `null` when it was not encoded.
  package func action(_ json: JSONValue?) -> String {
    guard let json else { return "null" }
    return cut(SwiftValue(json, type: actionType, schema: schema).text)
  }

  /// A dependency value a step read, as `show` prints it: `uuid UUID(3)`, `date 2026-…Z`.
  package func dependency(_ value: DependencyValue) -> String {
    switch value {
    case .uuid(let text):
      "uuid " + SwiftValue(.string(text), type: "Foundation.UUID", schema: schema).text
    case .date(let seconds):
      "date " + SwiftValue(.double(seconds), type: "Foundation.Date", schema: schema).text
    case .random(let number): "random \(number)"
    case .stackElementID(let id): "stack element id \(id)"
    case .locale(let identifier): "locale \(identifier)"
    case .timeZone(let identifier): "time zone \(identifier)"
    case .calendar(let calendar): "calendar \(calendar.identifier) (\(calendar.timeZone))"
    case .temporaryDirectory(let url): "temporary directory \(url)"
    case .client(let key, let property):
      property.map { "\\.\($0) (\(key), not recorded)" } ?? "\(key) (not recorded)"
    }
  }

  /// A dependency value in its trace encoding (`{"uuid":"…"}`), written the same way.
  package func dependency(_ json: JSONValue) -> String {
    (try? DependencyValue(json: json)).map(dependency) ?? json.jsonString
  }

  private func cut(_ text: String) -> String {
    text.count > limit ? text.prefix(limit - 1) + "…" : text
  }
}
