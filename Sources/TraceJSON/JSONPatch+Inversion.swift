extension JSONPatch {
  /// The patch that undoes this one: applying it to this patch's result gives back the
  /// original document.
  ///
  /// Only reversible patches can be inverted, because undoing a `remove` or `replace` needs the
  /// old value. A patch is reversible when every `remove` and `replace` immediately follows a
  /// `test` of the same path (as ``diff(from:to:)`` produces), no `add` uses the `-` token or
  /// the root path, and it has no `copy`. Each `add` is assumed to create a new member or
  /// element and each `move` to target a location that did not exist, as in a diff. The
  /// inverse is itself reversible.
  ///
  /// - Throws: `JSONPatchError` with reason `notReversible`, naming the first operation that
  ///   prevents inversion.
  public func inverted() throws(JSONPatchError) -> JSONPatch {
    var steps: [[Operation]] = []
    steps.reserveCapacity(operations.count)
    var index = 0
    while index < operations.count {
      let operation = operations[index]
      func failure(_ detail: String) -> JSONPatchError {
        JSONPatchError(
          operationIndex: index, operationName: operation.name,
          path: operation.path.description, reason: .notReversible(detail))
      }
      switch operation {
      case .test(let path, let old):
        let next = index + 1 < operations.count ? operations[index + 1] : nil
        switch next {
        case .remove(let removedPath) where removedPath == path:
          steps.append([.add(path: path, value: old)])
          index += 2
        case .replace(let replacedPath, let new) where replacedPath == path:
          steps.append([.test(path: path, value: new), .replace(path: path, value: old)])
          index += 2
        default:
          steps.append([operation])
          index += 1
        }
      case .add(let path, let value):
        guard let last = path.lastToken else {
          throw failure("an add at the root replaces a document it does not record")
        }
        guard last != "-" else {
          throw failure("an add with the '-' index does not record where the value went")
        }
        steps.append([.test(path: path, value: value), .remove(path: path)])
        index += 1
      case .remove, .replace:
        throw failure("a \(operation.name) must follow a test of the same path")
      case .move(let from, let path):
        if from.isProperPrefix(of: path) { throw failure("cannot move a value into its own child") }
        steps.append([.move(from: path, path: from)])
        index += 1
      case .splice(let path, let offset, let old, let new):
        steps.append([.splice(path: path, offset: offset, old: new, new: old)])
        index += 1
      case .copy:
        throw failure("a copy may overwrite a value it does not record")
      }
    }
    return JSONPatch(steps.reversed().flatMap { $0 })
  }
}
