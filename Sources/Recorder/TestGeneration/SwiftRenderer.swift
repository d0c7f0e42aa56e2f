import TraceJSON

/// Writes recorded JSON back as Swift expressions that compile, for generated tests.
///
/// ``SwiftValue``'s one builder makes the value in its compilable mode and its one layout
/// writes it (``SwiftValue/source(indent:inlineLimit:)``): a literal where Swift has one for the
/// type (numbers, strings, arrays, dictionaries, enum cases, `UUID(7)`,
/// `Date(timeIntervalSinceReferenceDate:)`, ids that take an integer or string literal), a
/// struct its memberwise initializer where the trace read its stored properties, a stack a
/// closure that keeps its ids; and otherwise a call to the generated file's `decoded(_:)`,
/// which decodes the recorded JSON with the type the context asks for. That fallback compiles
/// for a `Decodable` type, so an unknown or hand-encoded one costs readability, not a build.
struct SwiftRenderer {
  let schema: TypeSchema
  /// Set when an expression needed the `decoded(_:)` fallback, so the file defines it.
  private(set) var usesDecoding = false
  /// Types decoded although the trace says they are not `Decodable`: the file then does not
  /// compile, and says why.
  private(set) var undecodableTypes: Set<String> = []

  init(schema: TypeSchema) {
    self.schema = schema
  }

  /// The expression for `json`, a value of the Swift type `type` (`nil` when unknown).
  ///
  /// A decoded fallback longer than `inlineLimit` characters of JSON is written pretty-printed,
  /// over several lines.
  mutating func expression(
    _ json: JSONValue, type: String?, indent: Int = 0, inlineLimit: Int = 60
  ) -> String {
    let value = SwiftValueBuilder(schema: schema, compilable: true).value(json, type: type)
    noteDecoding(in: value)
    return value.source(indent: indent, inlineLimit: inlineLimit)
  }

  /// The decoding fallback for `json` whatever its type: `try decoded(#"…"#)`.
  mutating func fallback(_ json: JSONValue, _ indent: Int) -> String {
    expression(json, type: nil, indent: indent)
  }

  /// Notes each `decoded(_:)` the value calls, and each type it decodes that is not `Decodable`.
  private mutating func noteDecoding(in value: SwiftValue) {
    switch value {
    case .atom: break
    case .list(_, let elements, _): for element in elements { noteDecoding(in: element) }
    case .dictionary(let entries):
      for entry in entries {
        noteDecoding(in: entry.key)
        noteDecoding(in: entry.value)
      }
    case .call(_, let arguments): for argument in arguments { noteDecoding(in: argument.value) }
    case .code(.decoded(_, let undecodable)):
      usesDecoding = true
      if let undecodable { undecodableTypes.insert(undecodable) }
    case .code(.stack(_, let entries)): for entry in entries { noteDecoding(in: entry.value) }
    case .code(.assembled(_, let members)): for member in members { noteDecoding(in: member.value) }
    case .code(.alert(_, _, let buttons, _)):
      for action in buttons.compactMap(\.action) { noteDecoding(in: action) }
    }
  }
}
