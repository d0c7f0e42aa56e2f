import TraceJSON

/// The walk through standard collections: arrays by position, dictionaries and sets by key.
///
/// Each compares the old and new Swift values with `==`, which skips elements that share
/// storage at once, and encodes only what was added or changed. The JSON it patches is the
/// previous state's encoding, so positions and sort orders come from there.
extension StateDiffer {
  /// Changed elements past this share of the array (and past 64) are cheaper to encode whole.
  static var changedShareLimit: Int { 8 }

  /// Appends the operations that turn `old` into `new`; `false` when the walk cannot follow the
  /// arrays and the caller must encode `new` whole.
  func walkArray(
    old: any WalkableArray, new: any WalkableArray, oldJSON: JSONValue, path: JSONPointer,
    codingPath: [any CodingKey], into operations: inout [JSONPatch.Operation]
  ) throws -> Bool {
    guard case .array(let oldElements) = oldJSON, oldElements.count == old.count,
      let edits = new._arrayEdits(fromAny: old),
      edits.changed.count <= max(64, new.count / Self.changedShareLimit)
    else { return false }
    if let move = edits.move {
      operations.append(
        .move(from: path.appending(index: move.from), path: path.appending(index: move.to)))
      return true
    }
    for position in edits.changed {
      try walk(
        old: old._encodable(at: position), new: new._encodable(at: position),
        oldJSON: oldElements[position], path: path.appending(index: position),
        codingPath: codingPath + [JSONCodingKey(intValue: position)], into: &operations)
    }
    let paired = min(edits.oldEnd, edits.newEnd)
    // Extra old elements go from the highest position down, so lower positions stay valid.
    for position in stride(from: edits.oldEnd - 1, through: paired, by: -1) {
      let elementPath = path.appending(index: position)
      operations.append(.test(path: elementPath, value: oldElements[position]))
      operations.append(.remove(path: elementPath))
    }
    for position in paired..<edits.newEnd {
      let elementPath = path.appending(index: position)
      let value = try encode(
        new._encodable(at: position), at: elementPath,
        codingPath + [JSONCodingKey(intValue: position)])
      operations.append(.add(path: elementPath, value: value))
    }
    return true
  }

  /// Appends the operations that turn the dictionary or set `old` into `new`; `false` when the
  /// caller must encode `new` whole.
  ///
  /// A dictionary with string-like keys is a JSON object: members are changed, added and
  /// removed by name. A set, or a dictionary with other keys, is an array the encoder sorts by
  /// each member's (or key's) JSON text: positions are found by binary search in the old array.
  func walkKeyed(
    old: any WalkableKeyedCollection, new: any WalkableKeyedCollection, oldJSON: JSONValue,
    path: JSONPointer, codingPath: [any CodingKey], into operations: inout [JSONPatch.Operation]
  ) throws -> Bool {
    guard let edits = new._keyEdits(fromAny: old) else { return false }
    if edits.entries.isEmpty { return true }
    guard edits.entries.count <= max(64, new.count / Self.changedShareLimit) else { return false }
    switch oldJSON {
    case .object(let oldObject) where !type(of: new).isSet && oldObject.count == old.count:
      return try walkObject(edits, oldObject, path, codingPath, &operations)
    case .array(let oldElements):
      // Sort order is that of the unredacted text: with redactions, positions could differ.
      guard redactions.isEmpty else { return false }
      let width = type(of: new).isSet ? 1 : 2
      guard oldElements.count == old.count * width else { return false }
      return try walkSorted(edits, oldElements, width, path, codingPath, &operations)
    default:
      return false
    }
  }

  private func walkObject(
    _ edits: KeyEdits, _ oldObject: JSONObject, _ path: JSONPointer,
    _ codingPath: [any CodingKey], _ operations: inout [JSONPatch.Operation]
  ) throws -> Bool {
    guard edits.entries.allSatisfy({ $0.name != nil }) else { return false }
    for entry in edits.entries {
      let name = entry.name!
      let memberPath = path.appending(name)
      let memberCodingPath = codingPath + [JSONCodingKey(stringValue: name)]
      switch (entry.old, entry.new) {
      case (let oldValue?, let newValue?):
        guard let oldMember = oldObject[name] else { return false }
        try walk(
          old: oldValue, new: newValue, oldJSON: oldMember, path: memberPath,
          codingPath: memberCodingPath, into: &operations)
      case (nil, let newValue?):
        let value = try encode(newValue, at: memberPath, memberCodingPath)
        operations.append(.add(path: memberPath, value: value))
      case (_?, nil):
        guard let oldMember = oldObject[name] else { return false }
        operations.append(.test(path: memberPath, value: oldMember))
        operations.append(.remove(path: memberPath))
      case (nil, nil):
        break
      }
    }
    return true
  }

  /// Patches an array sorted by the JSON text of every `width`-th element: a set (`width` 1)
  /// or a dictionary's alternating keys and values (`width` 2).
  private func walkSorted(
    _ edits: KeyEdits, _ oldElements: [JSONValue], _ width: Int, _ path: JSONPointer,
    _ codingPath: [any CodingKey], _ operations: inout [JSONPatch.Operation]
  ) throws -> Bool {
    let groups = oldElements.count / width
    /// The first group whose key's text is not below `text`.
    func lowerBound(_ text: [UInt8]) -> Int {
      var low = 0
      var high = groups
      while low < high {
        let middle = (low + high) / 2
        if oldElements[middle * width].jsonBytes.lexicographicallyPrecedes(text) {
          low = middle + 1
        } else {
          high = middle
        }
      }
      return low
    }
    func keyText(_ key: any Encodable, at group: Int) throws -> (JSONValue, [UInt8]) {
      let json = try encoder.encode(
        key, asPartAt: codingPath + [JSONCodingKey(intValue: group * width)])
      return (json, json.jsonBytes)
    }
    /// The group holding `key` in the old array, or `nil`.
    func oldGroup(of key: any Encodable) throws -> Int? {
      let (json, text) = try keyText(key, at: 0)
      let group = lowerBound(text)
      guard group < groups, oldElements[group * width].isIdentical(to: json) else { return nil }
      return group
    }

    var removed: [Int] = []
    var added: [(text: [UInt8], key: JSONValue, value: (any Encodable)?)] = []
    for entry in edits.entries {
      switch (entry.old, entry.new) {
      case (let oldValue?, let newValue?) where width == 2:
        guard let group = try oldGroup(of: entry.key) else { return false }
        let position = group * 2 + 1
        try walk(
          old: oldValue, new: newValue, oldJSON: oldElements[position],
          path: path.appending(index: position),
          codingPath: codingPath + [JSONCodingKey(intValue: position)], into: &operations)
      case (_?, nil):
        guard let group = try oldGroup(of: entry.key) else { return false }
        removed.append(group)
      case (nil, let newValue?):
        let (json, text) = try keyText(entry.key, at: 0)
        added.append((text, json, width == 2 ? newValue : nil))
      default:
        return false
      }
    }
    removed.sort()
    for group in removed.reversed() {
      for position in stride(from: group * width + width - 1, through: group * width, by: -1) {
        let elementPath = path.appending(index: position)
        operations.append(.test(path: elementPath, value: oldElements[position]))
        operations.append(.remove(path: elementPath))
      }
    }
    added.sort { $0.text.lexicographicallyPrecedes($1.text) }
    for (order, member) in added.enumerated() {
      let below = lowerBound(member.text)
      let removedBelow = removed.prefix { $0 < below }.count
      let group = below - removedBelow + order
      let keyPath = path.appending(index: group * width)
      operations.append(.add(path: keyPath, value: member.key))
      if let value = member.value {
        let valuePath = path.appending(index: group * width + 1)
        let json = try encode(
          value, at: valuePath, codingPath + [JSONCodingKey(intValue: group * width + 1)])
        operations.append(.add(path: valuePath, value: json))
      }
    }
    return true
  }
}
