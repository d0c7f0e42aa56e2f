extension JSONPatch {
  /// A reversible patch that turns `old` into `new`.
  ///
  /// Every `remove` and `replace` is preceded by a `test` of the value it discards, so the
  /// patch can be checked against the document it is applied to and ``inverted()`` can undo
  /// it. Comparison is exact: `1` and `1.0`, or `0.0` and `-0.0`, count as different values,
  /// while object member order is ignored.
  ///
  /// - Objects are compared per key, in a fixed order: removed keys (in `old`'s order), then
  ///   changed keys (recursively, in `old`'s order), then added keys (in `new`'s order).
  /// - Arrays whose elements are all objects with a unique scalar `"id"` member (in both
  ///   arrays) are compared by identity: a removed element is one `remove`, an inserted one
  ///   is one `add`, reordering uses `move` (as few as possible), and elements whose id
  ///   survives are compared recursively at their final index.
  /// - Other arrays are compared by index after trimming the common prefix and suffix, so
  ///   appending or removing at the end is a single operation.
  ///
  /// Operations apply in sequence: every index refers to the array as the earlier operations
  /// left it.
  ///
  /// With `splicingStrings`, a long string changed in a small run of its bytes is one
  /// ``Operation/splice(path:offset:old:new:)``, tca-replay's extension, instead of a `test`
  /// and `replace` of the whole string.
  public static func diff(
    from old: JSONValue, to new: JSONValue, splicingStrings: Bool = false
  ) -> JSONPatch {
    var differ = Differ(splicesStrings: splicingStrings)
    if !old.isIdentical(to: new) {
      // Room for a `test` and a `replace` at once: grown one by one, the array was allocated
      // twice for the one change a small state makes.
      differ.operations.reserveCapacity(4)
      differ.diff(old, new, at: JSONPointer())
    }
    return JSONPatch(differ.operations)
  }
}

/// Accumulates the operations of `JSONPatch.diff(from:to:)`.
/// The ids of an identified array, in order, and the position of each.
private struct Identities {
  var ids: [JSONValue]
  var positions: [JSONValue: Int]
}

private struct Differ {
  var operations: [JSONPatch.Operation] = []
  var splicesStrings = false

  /// Diffs two values already known to differ. Callers skip identical pairs before building
  /// their path, which keeps unchanged subtrees (the common case) free of allocations.
  mutating func diff(_ old: JSONValue, _ new: JSONValue, at path: JSONPointer) {
    switch (old, new) {
    case (.object(let oldObject), .object(let newObject)):
      diffObjects(oldObject, newObject, at: path)
    case (.array(let oldElements), .array(let newElements)):
      if let oldIDs = Self.identities(oldElements), let newIDs = Self.identities(newElements) {
        diffByIdentity(oldElements, oldIDs, newElements, newIDs, at: path)
      } else {
        diffByIndex(oldElements, newElements, at: path)
      }
    case (.string(let oldText), .string(let newText)) where splicesStrings:
      if let splice = JSONPatch.Operation.splice(from: oldText, to: newText, at: path) {
        operations.append(splice)
      } else {
        replace(old, with: new, at: path)
      }
    default:
      replace(old, with: new, at: path)
    }
  }

  private mutating func replace(_ old: JSONValue, with new: JSONValue, at path: JSONPointer) {
    operations.append(.test(path: path, value: old))
    operations.append(.replace(path: path, value: new))
  }

  private mutating func remove(_ old: JSONValue, at path: JSONPointer) {
    operations.append(.test(path: path, value: old))
    operations.append(.remove(path: path))
  }

  private mutating func diffObjects(_ old: JSONObject, _ new: JSONObject, at path: JSONPointer) {
    // The same keys in the same order (a struct encoded again): nothing removed or added, and
    // each member pairs with the one at its position. The operations are those of the general
    // case below, without its lookups of every key in the other object.
    if Self.haveSameKeys(old, new) {
      for position in old.entries.indices {
        let value = old.entries[position].value
        let newValue = new.entries[position].value
        if !value.isIdentical(to: newValue) {
          diff(value, newValue, at: path.appending(old.entries[position].key))
        }
      }
      return
    }
    for (key, value) in old where !new.contains(key: key) {
      remove(value, at: path.appending(key))
    }
    for (key, value) in old {
      if let newValue = new[key], !value.isIdentical(to: newValue) {
        diff(value, newValue, at: path.appending(key))
      }
    }
    for (key, value) in new where !old.contains(key: key) {
      operations.append(.add(path: path.appending(key), value: value))
    }
  }

  private static func haveSameKeys(_ old: JSONObject, _ new: JSONObject) -> Bool {
    guard old.count == new.count else { return false }
    for position in old.entries.indices where old.entries[position].key != new.entries[position].key {
      return false
    }
    return true
  }

  private mutating func diffByIndex(_ old: [JSONValue], _ new: [JSONValue], at path: JSONPointer) {
    let shorter = min(old.count, new.count)
    var prefix = 0
    while prefix < shorter && old[prefix].isIdentical(to: new[prefix]) { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix
      && old[old.count - 1 - suffix].isIdentical(to: new[new.count - 1 - suffix])
    {
      suffix += 1
    }
    let oldEnd = old.count - suffix
    let newEnd = new.count - suffix
    let paired = min(oldEnd, newEnd) - prefix
    for index in prefix..<(prefix + paired) where !old[index].isIdentical(to: new[index]) {
      diff(old[index], new[index], at: path.appending(index: index))
    }
    // Extra old elements: remove from the highest index down so lower indices stay valid.
    for index in stride(from: oldEnd - 1, through: prefix + paired, by: -1) {
      remove(old[index], at: path.appending(index: index))
    }
    // Extra new elements: add in increasing order, each at its final index.
    for index in (prefix + paired)..<newEnd {
      operations.append(.add(path: path.appending(index: index), value: new[index]))
    }
  }

  /// The `"id"` of every element and the position of each id, if all elements are objects
  /// with a unique scalar id; otherwise `nil`.
  private static func identities(_ elements: [JSONValue]) -> Identities? {
    var ids: [JSONValue] = []
    ids.reserveCapacity(elements.count)
    var positions: [JSONValue: Int] = [:]
    positions.reserveCapacity(elements.count)
    for (position, element) in elements.enumerated() {
      guard case .object(let object) = element, let id = object["id"] else { return nil }
      switch id {
      case .string, .integer, .unsignedInteger, .double, .bool: break
      default: return nil
      }
      guard positions.updateValue(position, forKey: id) == nil else { return nil }
      ids.append(id)
    }
    return Identities(ids: ids, positions: positions)
  }

  private mutating func diffByIdentity(
    _ old: [JSONValue],
    _ oldIdentities: Identities,
    _ new: [JSONValue],
    _ newIdentities: Identities,
    at path: JSONPointer
  ) {
    if oldIdentities.ids == newIdentities.ids {
      // Same elements in the same order: only their contents changed.
      for index in new.indices where !old[index].isIdentical(to: new[index]) {
        diff(old[index], new[index], at: path.appending(index: index))
      }
      return
    }
    // Where each element went, by position: one hash lookup per element.
    let newIndexOfOld = oldIdentities.ids.map { newIdentities.positions[$0] }
    let oldIndexOfNew = newIdentities.ids.map { oldIdentities.positions[$0] }

    // 1. Remove elements whose id is gone, from the highest index down.
    for index in old.indices.reversed() where newIndexOfOld[index] == nil {
      remove(old[index], at: path.appending(index: index))
    }

    // 2. Reorder the survivors with as few moves as possible. Each survivor is named by its
    //    index in `new`; the longest increasing run of those stays put.
    var working: [Int] = newIndexOfOld.compactMap { $0 }
    var staying = [Bool](repeating: false, count: new.count)
    for element in Self.longestIncreasingSubsequence(working) { staying[element] = true }
    if working.contains(where: { !staying[$0] }) {
      var predecessor: Int? = nil
      for element in working.sorted() {
        defer { predecessor = element }
        if staying[element] { continue }
        guard let source = working.firstIndex(of: element) else { continue }
        working.remove(at: source)
        let destination = predecessor.flatMap { working.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        working.insert(element, at: destination)
        if source != destination {
          operations.append(
            .move(from: path.appending(index: source), path: path.appending(index: destination)))
        }
      }
    }

    // 3. Insert new elements at their final indices, in increasing order.
    for index in new.indices where oldIndexOfNew[index] == nil {
      operations.append(.add(path: path.appending(index: index), value: new[index]))
    }

    // 4. Every element is now at its final index: diff the survivors in place.
    for index in new.indices {
      if let oldIndex = oldIndexOfNew[index], !old[oldIndex].isIdentical(to: new[index]) {
        diff(old[oldIndex], new[index], at: path.appending(index: index))
      }
    }
  }

  /// One longest strictly increasing subsequence of `sequence` (patience sorting).
  private static func longestIncreasingSubsequence(_ sequence: [Int]) -> [Int] {
    guard !sequence.isEmpty else { return [] }
    // tails[k]: index into `sequence` of the smallest tail of an increasing run of length k+1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: sequence.count)
    for (index, value) in sequence.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if sequence[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result: [Int] = []
    var cursor = tails[tails.count - 1]
    while cursor >= 0 {
      result.append(sequence[cursor])
      cursor = previous[cursor]
    }
    return result.reversed()
  }
}
