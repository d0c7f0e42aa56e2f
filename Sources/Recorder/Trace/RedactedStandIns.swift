import TraceJSON

/// Stand-ins of the declared type for redacted values, so that a state or an action holding
/// them decodes and its step is replayed.
///
/// The trace keeps one marker for every redacted value, the string `"<redacted>"`, whatever its
/// type: a `String` decodes from it, an `Int`, an enum, a dictionary or a struct does not. The
/// trace's `types` say what each member's type is; a replay puts in its place a value of that
/// type (0, false, nil, an empty collection, the first case of an enum, a struct of stand-ins)
/// before decoding. Stand-ins among a collection's elements differ from each other, so two
/// redacted members of a `Set` stay two. What today's reducer computes is redacted again before
/// it is compared, so a stand-in is never compared with the recording; a step whose result
/// differs while it holds one is unknown, never a divergence. Where the `types` say nothing
/// of the type, the marker stays and the step is unknown, as before.
struct RedactedStandIns {
  var schema: TypeSchema

  /// `value`, a value of `type`, with a stand-in for each redaction marker the schema can type.
  func replacing(in value: JSONValue, type: String) -> JSONValue {
    guard value.containsRedaction else { return value }
    return replace(value, type: type, ordinal: 0, depth: 0)
  }

  private func replace(_ value: JSONValue, type: String, ordinal: Int, depth: Int) -> JSONValue {
    guard depth < 64 else { return value }
    let type = TypeName.unwrappingOptional(type)
    if value == Redaction.placeholder {
      return standIn(for: type, ordinal: ordinal) ?? value
    }
    switch (value, schema.description(of: type)) {
    case (.object(var object), .structure(let members)?):
      for member in members {
        guard let child = object[member.name], child.containsRedaction else { continue }
        object[member.name] = replace(child, type: member.type, ordinal: 0, depth: depth + 1)
      }
      return .object(object)
    case (.object(var object), .enumeration(let cases)?):
      guard object.count == 1, let (name, payload) = object.first,
        let known = cases.first(where: { $0.name == name })
      else { return value }
      if payload == Redaction.placeholder, !known.payload.isEmpty {
        // The whole payload hidden, by a key rule naming the case: each value stands in.
        var members = JSONObject()
        for member in known.payload {
          guard let standIn = standIn(for: member.type, ordinal: 0) else { return value }
          members[member.name] = standIn
        }
        object[name] = .object(members)
        return .object(object)
      }
      guard case .object(var members) = payload else { return value }
      for member in known.payload {
        guard let child = members[member.name], child.containsRedaction else { continue }
        members[member.name] = replace(child, type: member.type, ordinal: 0, depth: depth + 1)
      }
      object[name] = .object(members)
      return .object(object)
    case (.object(var object), _):
      guard let element = RedactionPlaceholders.dictionaryValue(of: type) ?? schema.dictionaryValue(of: type)
      else { return value }
      for (position, (key, child)) in object.enumerated() where child.containsRedaction {
        object[key] = replace(child, type: element, ordinal: position, depth: depth + 1)
      }
      return .object(object)
    case (.array(var elements), _):
      guard let element = schema.element(of: type) ?? RedactionPlaceholders.collectionElement(of: type)
      else { return value }
      for index in elements.indices where elements[index].containsRedaction {
        elements[index] = replace(elements[index], type: element, ordinal: index, depth: depth + 1)
      }
      return .array(elements)
    default:
      return value
    }
  }

  /// A value of `type`, the `ordinal`-th of its collection, if one can be made: the
  /// placeholders generated tests use.
  private func standIn(for type: String, ordinal: Int) -> JSONValue? {
    RedactionPlaceholders(schema: schema).placeholder(of: type, isOptional: false, ordinal: ordinal)
  }
}

extension TypeSchema {
  /// The element type of a collection the schema describes.
  fileprivate func element(of type: String) -> String? {
    if case .collection(let element)? = description(of: type) { return element }
    return nil
  }

  /// The value type of a dictionary the schema describes.
  fileprivate func dictionaryValue(of type: String) -> String? {
    if case .dictionary(let value)? = description(of: type) { return value }
    return nil
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension RedactedStandIns {
  /// The paths of redacted values in `value` that no stand-in can replace: their type is
  /// known only from the hidden value itself (an enum or a struct seen nowhere else).
  func untyped(in value: JSONValue, type: String) -> [String] {
    var paths: [String] = []
    func visit(_ value: JSONValue, _ tokens: [String]) {
      guard paths.count < 8, value.containsRedaction else { return }
      if value == Redaction.placeholder {
        let declared = schema.type(at: tokens, in: type).map(TypeName.unwrappingOptional)
        if let declared, ["String", "Substring"].contains(TypeName.shortName(declared)) {
          return
        }
        if declared.flatMap({ replacing(in: value, type: $0) }) != value { return }
        paths.append(JSONPointer(tokens: tokens).description)
        return
      }
      if let object = value.objectValue {
        for (key, child) in object { visit(child, tokens + [key]) }
      } else if let elements = value.arrayValue {
        for (index, child) in elements.enumerated() { visit(child, tokens + [String(index)]) }
      }
    }
    visit(value, [])
    return paths
  }

  /// Warns on standard error, once per recording, about redacted values of the initial state
  /// that replay cannot stand in for: the steps that hold them will replay as unknown.
  static func warnAboutUntypedRedactions(in state: JSONValue, type: String, schema: TypeSchema) {
    let paths = RedactedStandIns(schema: schema).untyped(in: state, type: type)
    guard !paths.isEmpty else { return }
    let message =
      "tca-replay recorder: warning: redaction hides values at \(paths.joined(separator: ", "))"
      + " whose type the trace cannot describe without them (an enum or a struct seen nowhere"
      + " else); replay cannot stand in for them, and steps holding them will replay as"
      + " unknown. Redact the members inside instead.\n"
    let bytes = Array(message.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }
}
