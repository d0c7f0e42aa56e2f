import TraceJSON

extension TraceIndex {
  /// What the trace says of its Swift types: the `types` of the header and of every step.
  ///
  /// Reads every step line the first time, parsing only those that hold `types`. Lost steps
  /// add nothing.
  package func typeSchema() -> TypeSchema {
    if let learntTypes { return learntTypes }
    var schema = TypeSchema()
    schema.merge(header.types)
    for index in stepIndices where !isLost(index) {
      schema.merge(stepTypes(at: index))
    }
    learntTypes = schema
    return schema
  }

  /// Looks `path` up in `state`, a state of this trace, checking an absent value against the
  /// trace's types (see ``StateLookup``).
  package func lookUp(_ path: StatePath, in state: JSONValue) -> StateLookup {
    if let value = path.resolve(in: state), value != .null { return .value(value) }
    return StateLookup(path, in: state, type: header.stateType, schema: typeSchema())
  }
}

extension TraceIndex {
  /// Writes this trace's states and actions in Swift form, by its types.
  package func valueText() -> StateValueText {
    StateValueText(
      schema: typeSchema(), stateType: header.stateType, actionType: header.actionType)
  }
}

extension StateValueText {
  /// Writes values by the types of the trace at `path`; ``untyped`` when it cannot be read.
  package init(traceAt path: String) {
    self = (try? TraceIndex(path: path))?.valueText() ?? .untyped
  }
}
