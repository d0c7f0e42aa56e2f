import TraceJSON

extension TestGenerator {
  /// The fewest steps a test function holds before a natural point may end it.
  static let shortestFunction = 20

  /// Whether the test function holding `window` may end after its last step, which took the
  /// state from `before` to `after`: a screen closed there (a presentation dismissed, a stack
  /// popped), and no effect the window started is still running, so the next function starts
  /// where a person would start a test.
  static func isNaturalEnd(
    of window: [TraceStep], before: JSONValue, after: JSONValue, header: TraceHeader,
    schema: TypeSchema, effects: EffectPlan
  ) -> Bool {
    guard window.count >= shortestFunction, let last = window.last?.index else { return false }
    let running = window.contains { step in
      step.effects.contains { !effects.hasEnded($0, by: last) }
    }
    guard !running else { return false }
    return openScreens(after, type: header.stateType, schema: schema, depth: 0)
      < openScreens(before, type: header.stateType, schema: schema, depth: 0)
  }

  /// How many screens `value`, of `type`, has open: presented states that are not `nil`, and
  /// stack elements, counted through structs and enum payloads (not through collections, whose
  /// elements are rows, not screens).
  static func openScreens(
    _ value: JSONValue, type: String, schema: TypeSchema, depth: Int
  ) -> Int {
    guard depth < 32, value != .null else { return 0 }
    let type = TypeName.unwrappingOptional(type)
    if TypeName.isArchitecture(type, named: "PresentationState") {
      let wrapped = TypeName.genericArgument(of: type) ?? ""
      return 1 + openScreens(value, type: wrapped, schema: schema, depth: depth + 1)
    }
    if TypeName.isArchitecture(type, named: "StackState") {
      return value.arrayValue?.count ?? 0
    }
    switch schema.description(of: type) {
    case .structure(let members)?:
      guard let object = value.objectValue else { return 0 }
      return members.reduce(0) { count, member in
        guard let child = object[member.name] else { return count }
        return count + openScreens(child, type: member.type, schema: schema, depth: depth + 1)
      }
    case .enumeration(let cases)?:
      guard let object = value.objectValue, object.count == 1, let only = object.first,
        let members = cases.first(where: { $0.name == only.key })?.payload,
        let fields = only.value.objectValue
      else { return 0 }
      return members.reduce(0) { count, member in
        guard let child = fields[member.name] else { return count }
        return count + openScreens(child, type: member.type, schema: schema, depth: depth + 1)
      }
    default:
      return 0
    }
  }
}
