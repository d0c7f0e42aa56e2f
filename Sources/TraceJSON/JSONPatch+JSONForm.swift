extension JSONPatch {
  /// Reads a patch from its RFC 6902 form: an array of operation objects.
  ///
  /// Members the RFC does not define are ignored (§A.11). A missing or ill-typed member, an
  /// unknown `op` or an invalid pointer is an error naming the operation.
  public init(json: JSONValue) throws(JSONPatchError) {
    guard case .array(let elements) = json else { throw JSONPatchError(reason: .notAnArray) }
    var operations: [Operation] = []
    operations.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      operations.append(try Self.operation(from: element, index: index))
    }
    self.init(operations)
  }

  /// The patch in RFC 6902 form: an array of objects with members `op`, `from`, `path`, `value`.
  public var json: JSONValue {
    .array(operations.map(\.json))
  }

  private static func operation(
    from element: JSONValue,
    index: Int
  ) throws(JSONPatchError) -> Operation {
    func failure(_ detail: String, name: String? = nil, path: String? = nil) -> JSONPatchError {
      JSONPatchError(
        operationIndex: index, operationName: name, path: path, reason: .malformedOperation(detail))
    }
    guard case .object(let object) = element else {
      throw failure("an operation must be an object")
    }
    guard let opValue = object["op"] else { throw failure("missing \"op\"") }
    guard case .string(let name) = opValue else { throw failure("\"op\" must be a string") }
    let rawPath = object["path"]?.stringValue

    func pointer(_ member: String) throws(JSONPatchError) -> JSONPointer {
      guard let value = object[member] else {
        throw failure("missing \"\(member)\"", name: name, path: rawPath)
      }
      guard case .string(let text) = value else {
        throw failure("\"\(member)\" must be a string", name: name, path: rawPath)
      }
      guard let pointer = JSONPointer(text) else {
        throw failure(
          "\"\(member)\" is not a valid JSON pointer: \(value)", name: name, path: rawPath)
      }
      return pointer
    }
    func value() throws(JSONPatchError) -> JSONValue {
      guard let value = object["value"] else {
        throw failure("missing \"value\"", name: name, path: rawPath)
      }
      return value
    }

    switch name {
    case "add": return .add(path: try pointer("path"), value: try value())
    case "remove": return .remove(path: try pointer("path"))
    case "replace": return .replace(path: try pointer("path"), value: try value())
    case "move": return .move(from: try pointer("from"), path: try pointer("path"))
    case "copy": return .copy(from: try pointer("from"), path: try pointer("path"))
    case "test": return .test(path: try pointer("path"), value: try value())
    case "splice":
      guard case .string(let new) = try value() else {
        throw failure("\"value\" of a splice must be a string", name: name, path: rawPath)
      }
      guard case .string(let old) = object["old"] else {
        throw failure("a splice needs an \"old\" string", name: name, path: rawPath)
      }
      let offset: Int? =
        switch object["offset"] {
        case .integer(let offset) where offset >= 0: Int(exactly: offset)
        case .unsignedInteger(let offset): Int(exactly: offset)
        default: nil
        }
      guard let offset else {
        throw failure("a splice needs an \"offset\" of 0 or more", name: name, path: rawPath)
      }
      return .splice(path: try pointer("path"), offset: offset, old: old, new: new)
    default: throw failure("unknown op \(opValue)", name: name, path: rawPath)
    }
  }
}

extension JSONPatch.Operation {
  /// The operation as an RFC 6902 operation object.
  public var json: JSONValue {
    var object = JSONObject(minimumCapacity: 4)
    object.appendNew(key: "op", value: .string(name))
    if let from { object.appendNew(key: "from", value: .string(from.description)) }
    object.appendNew(key: "path", value: .string(path.description))
    if case .splice(_, let offset, let old, let new) = self {
      object.appendNew(key: "offset", value: .integer(Int64(offset)))
      object.appendNew(key: "old", value: .string(old))
      object.appendNew(key: "value", value: .string(new))
    }
    if let value { object.appendNew(key: "value", value: value) }
    return .object(object)
  }
}

extension JSONPatch: Codable {
  /// Decodes a patch from its RFC 6902 form.
  public init(from decoder: any Decoder) throws {
    try self.init(json: JSONValue(from: decoder))
  }

  /// Encodes the patch in its RFC 6902 form.
  public func encode(to encoder: any Encoder) throws {
    try json.encode(to: encoder)
  }
}
