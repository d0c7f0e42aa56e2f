import TraceJSON

extension TestGenerator {
  /// Refuses a record whose names would be pasted into the generated source as code and are not
  /// what Swift writes there: the header's reducer, state and action types, and every type name
  /// in a `types` member (their modules become `import` lines).
  ///
  /// A trace is data from anywhere; a name such as `Feature()\nprint("x")//` would otherwise
  /// become statements of the generated tests. Member, case and label names are not refused
  /// here: the renderer writes only those that are identifiers and decodes the rest.
  ///
  /// - Parameters:
  ///   - record: A record of the trace.
  ///   - line: Its 1-based line in the trace, for the error.
  ///   - traceName: The file name errors start with.
  func checkNames(
    in record: TraceRecord, line: Int, traceName: String
  ) throws(TestGenerationError) {
    func refuse(_ name: String, _ role: String) -> TestGenerationError {
      TestGenerationError(
        .badTrace,
        "\(traceName):\(line): \(role) \(SwiftValue.stringLiteral(name)) is not a Swift type "
          + "name; gen-test writes only names like Module.Feature or Module.List<Module.Item>"
      )
    }
    switch record {
    case .header(let header):
      // `reducer` may be written with or without its module: both are type names.
      for (name, role) in [
        (header.reducer, "the reducer"), (header.stateType, "the state type"),
        (header.actionType, "the action type"),
      ] where !SwiftValue.isTypeName(name) {
        throw refuse(name, role)
      }
      if let name = Self.firstBadTypeName(in: header.types) {
        throw refuse(name, "the type")
      }
    case .step(let step):
      if let name = Self.firstBadTypeName(in: step.types) {
        throw refuse(name, "the type")
      }
    default:
      break
    }
  }

  /// Refuses options that would be pasted into the source and are not names: library callers
  /// build options themselves, and the command line checks them before this.
  func checkOptionNames() throws(TestGenerationError) {
    if let name = options.typeName, !SwiftValue.isPlainIdentifier(name) {
      throw TestGenerationError(
        .badOptions, "\(SwiftValue.stringLiteral(name)) is not a Swift type name")
    }
    if let reducer = options.reducer, !SwiftValue.isTypeName(reducer) {
      throw TestGenerationError(
        .badOptions, "\(SwiftValue.stringLiteral(reducer)) is not a Swift type name")
    }
    for module in options.modules where !SwiftValue.isPlainIdentifier(module) {
      throw TestGenerationError(
        .badOptions, "\(SwiftValue.stringLiteral(module)) is not a Swift module name")
    }
  }

  /// The first name in a `types` member that is not a type name: a key, or a type a
  /// description refers to. Descriptions the schema ignores (unknown kinds) refer to nothing.
  static func firstBadTypeName(in types: JSONValue?) -> String? {
    guard let object = types?.objectValue else { return nil }
    for (name, body) in object {
      if !SwiftValue.isTypeName(name) { return name }
      guard let description = TypeSchema.Description(json: body) else { continue }
      for type in description.referencedTypes where !SwiftValue.isTypeName(type) {
        return type
      }
    }
    return nil
  }
}

extension TypeSchema.Description {
  /// The type names the description refers to: of members, payload values and elements.
  var referencedTypes: [String] {
    switch self {
    case .structure(let members): members.map(\.type)
    case .enumeration(let cases): cases.flatMap { $0.payload.map(\.type) }
    case .rawEnumeration, .literal: []
    case .collection(let element): [element]
    case .dictionary(let value): [value]
    }
  }
}
