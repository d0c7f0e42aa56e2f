import TraceJSON

extension TraceRecord {
  /// Appends the record's line, without its newline, to `out`.
  ///
  /// Steps, the bulk of a trace, are written directly rather than through an intermediate
  /// JSON object; the bytes are exactly those of ``json`` serialized.
  func serialize(into out: inout [UInt8]) {
    guard case let .step(step) = self else {
      json.serialize(into: &out)
      return
    }
    Self.serialize(step, actionMembers: nil, into: &out)
  }

  /// Appends a step's line, without its newline, to `out`. `actionMembers`, when given, are the
  /// bytes of the step's action and label as ``actionMembers(action:label:)`` writes them: a
  /// recorder keeps those of the actions it meets again and again.
  static func serialize(_ step: TraceStep, actionMembers: [UInt8]?, into out: inout [UInt8]) {
    literal(#"{"kind":"step","index":"#, &out)
    JSONTextWriter.appendInteger(Int64(step.index), to: &out)
    literal(#","time":"#, &out)
    JSONTextWriter.appendDouble(step.time, to: &out)
    if let clock = step.clock {
      literal(#","clock":"#, &out)
      JSONTextWriter.appendDouble(clock, to: &out)
    }
    switch step.origin {
    case .send:
      literal(#","origin":"send""#, &out)
    case let .effect(cause):
      literal(#","origin":"effect","cause":"#, &out)
      if let cause {
        JSONTextWriter.appendInteger(Int64(cause), to: &out)
      } else {
        literal("null", &out)
      }
    }
    literal(#","action":"#, &out)
    if let actionMembers {
      out.append(contentsOf: actionMembers)
    } else {
      appendActionMembers(action: step.action, label: step.label, to: &out)
    }
    literal(#","patch":"#, &out)
    step.patch.serialize(into: &out)
    if !step.dependencies.isEmpty {
      literal(#","deps":"#, &out)
      JSONValue.array(step.dependencies.map(\.json)).serialize(into: &out)
    }
    if !step.effects.isEmpty {
      literal(#","effects":["#, &out)
      for (position, effect) in step.effects.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONTextWriter.appendInteger(Int64(effect), to: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    strings(#","cancels":["#, step.cancels, &out)
    strings(#","cancellable":["#, step.cancellable, &out)
    if let types = step.types {
      literal(#","types":"#, &out)
      types.serialize(into: &out)
    }
    out.append(UInt8(ascii: "}"))
  }

  /// A step's action and label as its line holds them after `"action":`: the action's JSON
  /// (`null` when it could not be encoded), `,"label":` and the label.
  static func actionMembers(action: JSONValue?, label: String) -> [UInt8] {
    var bytes: [UInt8] = []
    appendActionMembers(action: action, label: label, to: &bytes)
    return bytes
  }

  private static func appendActionMembers(
    action: JSONValue?, label: String, to out: inout [UInt8]
  ) {
    (action ?? .null).serialize(into: &out)
    literal(#","label":"#, &out)
    JSONTextWriter.appendString(label, to: &out)
  }

  /// `member` and the strings, then `]`; nothing when there are none.
  private static func strings(_ member: StaticString, _ values: [String], _ out: inout [UInt8]) {
    guard !values.isEmpty else { return }
    literal(member, &out)
    for (position, value) in values.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      JSONTextWriter.appendString(value, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  private static func literal(_ text: StaticString, _ out: inout [UInt8]) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
  }
}
