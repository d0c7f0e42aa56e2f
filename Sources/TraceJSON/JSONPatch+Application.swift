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
  ///
  /// The `copy` operations of one patch may copy, together, at most ``copyAllowance`` bytes of
  /// JSON: without a bound, a few hundred bytes of `copy` operations, each doubling a value,
  /// make a document of gigabytes. The patches tca-replay writes have no `copy` at all.
  package func apply(to document: inout JSONValue) throws(JSONPatchError) {
    // Computed at the first `copy`: patches without one pay nothing.
    var copiesLeft: Int?
    for (index, operation) in operations.enumerated() {
      do throws(JSONPatchError) {
        if case .copy(let from, _) = operation, let value = from.resolve(in: document) {
          let allowance = copiesLeft ?? copyAllowance
          let size = value.jsonSize(upTo: allowance)
          guard size <= allowance else {
            throw Self.failure(.copiesTooMuch(limit: copyAllowance))
          }
          copiesLeft = allowance - size
        }
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
    case .splice(let path, let offset, let old, let new):
      try modify(&document, at: path.tokens[...], missing: .pathNotFound) {
        target throws(JSONPatchError) in
        try applySplice(at: path, offset: offset, old: old, new: new, to: &target)
      }
    case .test(let path, let expected):
      let actual = path.resolve(in: document)
      guard actual == expected else {
        throw failure(.testFailed(expected: expected, actual: actual))
      }
    }
  }

  /// How many bytes of JSON the `copy` operations of this patch may copy, together: as many as
  /// the patch itself holds, or 4 KiB if it holds less. So a patch can add no more to a document
  /// than twice its own size, or 4 KiB, whatever its operations are.
  public var copyAllowance: Int {
    var size = 2
    for operation in operations {
      size += 32 + operation.path.description.utf8.count
        + (operation.from?.description.utf8.count ?? 0)
      switch operation {
      case .add(_, let value), .replace(_, let value), .test(_, let value):
        size += value.jsonSize(upTo: .max)
      case .splice(_, _, let old, let new): size += old.utf8.count + new.utf8.count
      case .remove, .move, .copy: break
      }
    }
    return max(size, 4096)
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
      let added: Void? = try container.modifyArray { (elements) throws(JSONPatchError) in
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
        elements.insert(value, at: index)
      }
      if added != nil { return }
      if container.modifyObject({ object in object[last] = value }) != nil { return }
      throw failure(.parentNotAContainer(container.typeName))
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
      let fromArray = try container.modifyArray { elements throws(JSONPatchError) in
        guard let index = JSONPointer.arrayIndex(last) else {
          throw failure(last == "-" ? missing : .invalidArrayIndex(last))
        }
        guard index < elements.count else {
          throw failure(.indexOutOfRange(index: index, count: elements.count))
        }
        return elements.remove(at: index)
      }
      if let fromArray { return fromArray }
      let fromObject = try container.modifyObject { object throws(JSONPatchError) in
        guard let position = object.position(ofKey: last) else { throw failure(missing) }
        return object.remove(at: position).value
      }
      guard let fromObject else { throw failure(missing) }
      return fromObject
    }
  }

  /// Runs `body` on the value at `tokens` below `value`, in place, without copying the
  /// containers on the way (see `JSONValue.modifyArray(_:)`).
  private static func modify<R>(
    _ value: inout JSONValue,
    at tokens: ArraySlice<String>,
    missing: JSONPatchError.Reason,
    _ body: (inout JSONValue) throws(JSONPatchError) -> R
  ) throws(JSONPatchError) -> R {
    guard let token = tokens.first else { return try body(&value) }
    let rest = tokens.dropFirst()
    let inObject = try value.modifyObject { object throws(JSONPatchError) in
      guard let position = object.position(ofKey: token) else { throw failure(missing) }
      return try object.modifyValue(at: position) { child throws(JSONPatchError) -> R in
        try modify(&child, at: rest, missing: missing, body)
      }
    }
    if let inObject { return inObject }
    let inArray = try value.modifyArray { elements throws(JSONPatchError) in
      guard let index = JSONPointer.arrayIndex(token) else {
        throw failure(token == "-" ? missing : .invalidArrayIndex(token))
      }
      guard index < elements.count else {
        throw failure(.indexOutOfRange(index: index, count: elements.count))
      }
      return try modify(&elements[index], at: rest, missing: missing, body)
    }
    guard let inArray else { throw failure(missing) }
    return inArray
  }
}
