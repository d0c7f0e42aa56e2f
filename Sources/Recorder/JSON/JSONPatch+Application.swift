extension JSONPatch {
  /// Applies the operations in order to `document` and returns the result.
  ///
  /// Application is atomic: if any operation fails, the error is thrown and nothing is
  /// returned, and `document` itself is never modified (it is a value). Bad patches never trap:
  /// missing paths, out-of-range or malformed indices (`01`, `-` outside `add`), moving a value
  /// into its own child and failed tests are all reported as `JSONPatchError`s naming the
  /// operation.
  public func apply(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
    var result = document
    try apply(to: &result)
    return result
  }

  /// Applies the operations to `document` in place; on error `document` may be partly changed.
  package func apply(to document: inout JSONValue) throws(JSONPatchError) {
    for (index, operation) in operations.enumerated() {
      do {
        try Self.apply(operation, to: &document)
      } catch {
        throw JSONPatchError(
          operationIndex: index,
          operationName: operation.name,
          path: operation.path.description,
          reason: error.reason)
      }
    }
  }

  private static func apply(
    _ operation: Operation,
    to document: inout JSONValue
  ) throws(JSONPatchError) {
    switch operation {
    case .add(let path, let value):
      try add(value, at: path, in: &document)
    case .remove(let path):
      _ = try remove(at: path, in: &document, missing: .pathNotFound)
    case .replace(let path, let value):
      try modify(&document, at: path.tokens[...], missing: .pathNotFound) { target in
        target = value
      }
    case .move(let from, let path):
      if from == path {
        guard from.resolve(in: document) != nil else { throw failure(.fromNotFound) }
        return
      }
      if from.isProperPrefix(of: path) { throw failure(.moveIntoOwnChild) }
      let value = try remove(at: from, in: &document, missing: .fromNotFound)
      try add(value, at: path, in: &document)
    case .copy(let from, let path):
      guard let value = from.resolve(in: document) else { throw failure(.fromNotFound) }
      try add(value, at: path, in: &document)
    case .test(let path, let expected):
      let actual = path.resolve(in: document)
      guard actual == expected else {
        throw failure(.testFailed(expected: expected, actual: actual))
      }
    }
  }

  private static func failure(_ reason: JSONPatchError.Reason) -> JSONPatchError {
    JSONPatchError(reason: reason)
  }

  private static func add(
    _ value: JSONValue,
    at path: JSONPointer,
    in document: inout JSONValue
  ) throws(JSONPatchError) {
    guard let last = path.tokens.last else {
      document = value
      return
    }
    try modify(&document, at: path.tokens.dropLast(), missing: .parentNotFound) {
      (container: inout JSONValue) throws(JSONPatchError) in
      switch container {
      case .object(var object):
        container = .null
        object[last] = value
        container = .object(object)
      case .array(var elements):
        let index: Int
        if last == "-" {
          index = elements.count
        } else {
          guard let parsed = JSONPointer.arrayIndex(last) else {
            throw failure(.invalidArrayIndex(last))
          }
          guard parsed <= elements.count else {
            throw failure(.indexOutOfRange(index: parsed, count: elements.count))
          }
          index = parsed
        }
        container = .null
        elements.insert(value, at: index)
        container = .array(elements)
      default:
        throw failure(.parentNotAContainer(container.typeName))
      }
    }
  }

  /// Removes and returns the value at `path`.
  private static func remove(
    at path: JSONPointer,
    in document: inout JSONValue,
    missing: JSONPatchError.Reason
  ) throws(JSONPatchError) -> JSONValue {
    guard let last = path.tokens.last else { throw failure(.cannotRemoveRoot) }
    return try modify(&document, at: path.tokens.dropLast(), missing: missing) {
      container throws(JSONPatchError) -> JSONValue in
      switch container {
      case .object(var object):
        guard let position = object.position(ofKey: last) else { throw failure(missing) }
        container = .null
        let removed = object.remove(at: position).value
        container = .object(object)
        return removed
      case .array(var elements):
        guard let index = JSONPointer.arrayIndex(last) else {
          throw failure(last == "-" ? missing : .invalidArrayIndex(last))
        }
        guard index < elements.count else {
          throw failure(.indexOutOfRange(index: index, count: elements.count))
        }
        container = .null
        let removed = elements.remove(at: index)
        container = .array(elements)
        return removed
      default:
        throw failure(missing)
      }
    }
  }

  /// Runs `body` on the value at `tokens` below `value`, in place.
  ///
  /// Containers are taken out of their enum while being changed so that they stay uniquely
  /// referenced and are not copied.
  private static func modify<R>(
    _ value: inout JSONValue,
    at tokens: ArraySlice<String>,
    missing: JSONPatchError.Reason,
    _ body: (inout JSONValue) throws(JSONPatchError) -> R
  ) throws(JSONPatchError) -> R {
    guard let token = tokens.first else { return try body(&value) }
    let rest = tokens.dropFirst()
    switch value {
    case .object(var object):
      guard let position = object.position(ofKey: token) else { throw failure(missing) }
      value = .null
      defer { value = .object(object) }
      return try object.modifyValue(at: position) { child throws(JSONPatchError) -> R in
        try modify(&child, at: rest, missing: missing, body)
      }
    case .array(var elements):
      guard let index = JSONPointer.arrayIndex(token) else {
        throw failure(token == "-" ? missing : .invalidArrayIndex(token))
      }
      guard index < elements.count else {
        throw failure(.indexOutOfRange(index: index, count: elements.count))
      }
      value = .null
      defer { value = .array(elements) }
      return try modify(&elements[index], at: rest, missing: missing, body)
    default:
      throw failure(missing)
    }
  }
}
