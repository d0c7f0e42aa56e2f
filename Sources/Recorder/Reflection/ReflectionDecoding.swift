import Architecture
import TraceJSON

/// Builds a value of any type from what ``ReflectionEncoding`` wrote, from the type's runtime
/// metadata: a struct's stored properties are written at their offsets, and an enum's payload
/// is written and its case tag set by the type's own value witness, so no initializer (and no
/// property's default value) runs.
enum ReflectionDecoding {
  /// A value of `type` built from `json`, found at `path` in the value being rebuilt.
  static func build(
    _ type: Any.Type, from json: JSONValue, at path: [any CodingKey],
    decoder: JSONValueDecoder = .replaying
  ) throws -> Any {
    if let first = type as? any ReflectedFirst.Type {
      return try rethrowing(type, at: path) { try first.rebuilt(from: json, decoder: decoder) }
    }
    if let decodable = type as? any Decodable.Type {
      return try rethrowing(type, at: path) { try decoder.decode(decodable, from: json) }
    }
    if let form = type as? any ReflectedForm.Type {
      return try rethrowing(type, at: path) { try form.rebuilt(from: json, decoder: decoder) }
    }
    if case .object(let object) = json, object.count == 1,
      case .string(let opaque)? = object[ReflectionEncoding.opaqueKey]
    {
      throw ReflectionError.cannotRebuild(
        type: opaque, path: pathText(path), reason: "it was recorded as an opaque value")
    }
    func open<Value>(_: Value.Type) throws -> Any {
      try buildValue(Value.self, from: json, at: path, decoder: decoder)
    }
    return try _openExistential(type, do: open)
  }

  private static func buildValue<Value>(
    _: Value.Type, from json: JSONValue, at path: [any CodingKey], decoder: JSONValueDecoder
  ) throws -> Value {
    let reflected = ReflectedType.of(Value.self)
    switch reflected.kind {
    case .optional(let wrapped):
      if case .null = json { return Optional<Any>.none as Any as! Value }
      let value = try build(wrapped, from: json, at: path, decoder: decoder)
      func some<Wrapped>(_: Wrapped.Type) -> Value {
        Optional<Wrapped>.some(value as! Wrapped) as! Value
      }
      return _openExistential(wrapped, do: some)
    case .structure(let fields):
      guard case .object(let object) = json else {
        throw mismatch(Value.self, at: path, expected: "an object", found: json)
      }
      return try assemble(Value.self) { storage in
        try initialize(fields, at: storage, from: object, at: path, decoder: decoder)
      }
    case .enumeration(let cases):
      guard case .object(let object) = json, object.count == 1, let (name, payload) = object.first,
        let tag = cases.firstIndex(where: { $0.name == name })
      else {
        let names = cases.map { "." + $0.name }.joined(separator: ", ")
        throw mismatch(Value.self, at: path, expected: "one of its cases (\(names))", found: json)
      }
      let enumCase = cases[tag]
      let casePath = path + [JSONCodingKey(stringValue: name)]
      return try assemble(Value.self) { storage in
        if let payloadType = enumCase.payload {
          guard case .object(let arguments) = payload else {
            throw mismatch(payloadType, at: casePath, expected: "an object", found: payload)
          }
          // Several values, or a labelled one, are a tuple; one unlabelled value is `_0`.
          let payloadJSON: JSONValue
          var payloadPath = casePath
          if case .tuple = ReflectedType.of(payloadType).kind {
            payloadJSON = payload
          } else {
            payloadJSON = arguments["_0"] ?? .null
            payloadPath.append(JSONCodingKey(stringValue: "_0"))
          }
          let value = try build(payloadType, from: payloadJSON, at: payloadPath, decoder: decoder)
          func write<Payload>(_: Payload.Type) {
            if enumCase.isIndirect {
              // An indirect case holds its payload in a box, as this one-case enum does.
              storage.initializeMemory(
                as: IndirectBox<Payload>.self, repeating: .value(value as! Payload), count: 1)
            } else {
              storage.initializeMemory(as: Payload.self, repeating: value as! Payload, count: 1)
            }
          }
          _openExistential(payloadType, do: write)
        }
        let witnesses = EnumWitnesses(Value.self)
        witnesses.injectTag(storage, UInt32(tag), witnesses.metadata)
      }
    case .tuple(let elements):
      guard case .object(let object) = json else {
        throw mismatch(Value.self, at: path, expected: "an object", found: json)
      }
      return try assemble(Value.self) { storage in
        try initialize(elements, at: storage, from: object, at: path, decoder: decoder)
      }
    case .opaque(let name):
      throw ReflectionError.cannotRebuild(
        type: name, path: pathText(path),
        reason: "reflection rebuilds structs, enums, tuples and optionals, not this kind of type")
    }
  }

  /// A value assembled in fresh storage by `fill`, then moved out.
  private static func assemble<Value>(
    _: Value.Type, _ fill: (UnsafeMutableRawPointer) throws -> Void
  ) throws -> Value {
    let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    defer { storage.deallocate() }
    try fill(UnsafeMutableRawPointer(storage))
    return storage.move()
  }

  /// Builds each field from its member of `object` and writes it at its offset; on an error,
  /// destroys those already written.
  private static func initialize(
    _ fields: [ReflectedType.Field], at storage: UnsafeMutableRawPointer,
    from object: JSONObject, at path: [any CodingKey], decoder: JSONValueDecoder
  ) throws {
    var written: [ReflectedType.Field] = []
    do {
      for field in fields {
        let fieldPath = path + [JSONCodingKey(stringValue: field.key)]
        let value: Any
        if let member = object[field.key] {
          value = try build(field.type, from: member, at: fieldPath, decoder: decoder)
        } else if let absent = try? build(
          field.type, from: .null, at: fieldPath, decoder: decoder)
        {
          // A `nil` optional is left out, as `encodeIfPresent` leaves it.
          value = absent
        } else {
          throw ReflectionError.cannotRebuild(
            type: String(reflecting: field.type), path: pathText(fieldPath),
            reason: "the recording has no value for it")
        }
        func write<Field>(_: Field.Type) {
          (storage + field.offset).initializeMemory(
            as: Field.self, repeating: value as! Field, count: 1)
        }
        _openExistential(field.type, do: write)
        written.append(field)
      }
    } catch {
      for field in written {
        func destroy<Field>(_: Field.Type) {
          (storage + field.offset).assumingMemoryBound(to: Field.self).deinitialize(count: 1)
        }
        _openExistential(field.type, do: destroy)
      }
      throw error
    }
  }

  private static func rethrowing(
    _ type: Any.Type, at path: [any CodingKey], _ body: () throws -> Any
  ) throws -> Any {
    do {
      return try body()
    } catch let error as ReflectionError {
      throw error.prefixed(by: path)
    } catch {
      throw ReflectionError.mismatch(
        type: String(reflecting: type), path: pathText(path), reason: "\(error)")
    }
  }

  private static func mismatch(
    _ type: Any.Type, at path: [any CodingKey], expected: String, found: JSONValue
  ) -> ReflectionError {
    .mismatch(
      type: String(reflecting: type), path: pathText(path),
      reason: "expected \(expected), found \(found.jsonString.prefix(60))")
  }

  static func pathText(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "/" }
    return path.map { "/" + ($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
  }
}

/// Why a recorded value could not be rebuilt, with the place and the one line that fixes it.
enum ReflectionError: Error, CustomStringConvertible {
  /// The type has nothing reflection can rebuild it from: the fix is in the app.
  case cannotRebuild(type: String, path: String, reason: String)
  /// The recorded value does not fit the type: the trace is not this type's.
  case mismatch(type: String, path: String, reason: String)

  package var description: String {
    switch self {
    case .cannotRebuild(let type, let path, let reason):
      let name = type.split(separator: ".").dropFirst().joined(separator: ".")
      return """
        cannot rebuild \(type) at \(path): \(reason); give the type a conformance the replay \
        can use: extension \(name.isEmpty ? type : name): Decodable { … }
        """
    case .mismatch(let type, let path, let reason):
      return "the recorded value at \(path) is not a \(type): \(reason)"
    }
  }

  /// The same error, found inside a value at `path`.
  func prefixed(by path: [any CodingKey]) -> ReflectionError {
    guard !path.isEmpty else { return self }
    let prefix = ReflectionDecoding.pathText(path)
    switch self {
    case .cannotRebuild(let type, let inner, let reason):
      return .cannotRebuild(
        type: type, path: inner == "/" ? prefix : prefix + inner, reason: reason)
    case .mismatch(let type, let inner, let reason):
      return .mismatch(type: type, path: inner == "/" ? prefix : prefix + inner, reason: reason)
    }
  }
}

/// The box an `indirect` case keeps its payload in: a one-case indirect enum is that box.
private indirect enum IndirectBox<Payload> {
  case value(Payload)
}
