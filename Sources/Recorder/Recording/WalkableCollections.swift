import Foundation

/// What changed between two versions of an array, by position, found with `==` on elements.
struct ArrayEdits {
  /// The first position where the arrays differ.
  var prefix: Int
  /// Where the differing run ends in the old array; the elements after it are kept.
  var oldEnd: Int
  /// Where the differing run ends in the new array.
  var newEnd: Int
  /// One element moved within the run, the rest kept in order: `(from, to)`, positions as RFC
  /// 6902's `move` reads them.
  var move: (from: Int, to: Int)?
  /// Positions below `min(oldEnd, newEnd)` whose elements differ.
  var changed: [Int]
}

/// An `Array` of `Equatable` elements, which the state differ compares element by element.
protocol WalkableArray {
  var count: Int { get }
  /// The edits from `old`, an array of the same type; `nil` if it is not one.
  func _arrayEdits(fromAny old: Any) -> ArrayEdits?
  /// The element at `position`, as the differ encodes it.
  func _encodable(at position: Int) -> any Encodable
}

extension Array: WalkableArray where Element: Equatable & Encodable {
  func _arrayEdits(fromAny old: Any) -> ArrayEdits? {
    guard let old = old as? [Element] else { return nil }
    let shorter = Swift.min(old.count, count)
    var prefix = 0
    while prefix < shorter && old[prefix] == self[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix && old[old.count - 1 - suffix] == self[count - 1 - suffix] {
      suffix += 1
    }
    let oldEnd = old.count - suffix
    let newEnd = count - suffix
    var edits = ArrayEdits(prefix: prefix, oldEnd: oldEnd, newEnd: newEnd, move: nil, changed: [])
    if oldEnd == newEnd, oldEnd - prefix >= 2 {
      let last = oldEnd - 1
      if old[prefix] == self[last], old[(prefix + 1)...last].elementsEqual(self[prefix..<last]) {
        edits.move = (prefix, last)
        return edits
      }
      if old[last] == self[prefix], old[prefix..<last].elementsEqual(self[(prefix + 1)...last]) {
        edits.move = (last, prefix)
        return edits
      }
    }
    for position in prefix..<Swift.min(oldEnd, newEnd) where old[position] != self[position] {
      edits.changed.append(position)
    }
    return edits
  }

  func _encodable(at position: Int) -> any Encodable { self[position] }
}

/// What changed between two versions of a dictionary or a set, by key.
struct KeyEdits {
  struct Entry {
    /// The key (a set's element).
    let key: any Encodable
    /// The member name the key encodes as, when the dictionary encodes as a JSON object.
    let name: String?
    /// The value before, `nil` for an added key.
    let old: (any Encodable)?
    /// The value after, `nil` for a removed key.
    let new: (any Encodable)?
  }

  var entries: [Entry] = []
}

/// A `Dictionary` with `Equatable` values, or a `Set`, which the state differ compares by key.
protocol WalkableKeyedCollection {
  /// Whether this is a set: its members are keys without values.
  static var isSet: Bool { get }
  var count: Int { get }
  /// The keys added, removed or (for a dictionary) changed since `old`, of the same type.
  func _keyEdits(fromAny old: Any) -> KeyEdits?
}

extension Dictionary: WalkableKeyedCollection where Key: Encodable, Value: Equatable & Encodable {
  static var isSet: Bool { false }

  func _keyEdits(fromAny old: Any) -> KeyEdits? {
    guard let old = old as? Self else { return nil }
    var edits = KeyEdits()
    // A copy changed in place keeps its buckets, so both iterate in the same order: compare
    // side by side, and look keys up only when the orders part.
    // By index, not by (key, value) pairs: this code is not specialised, and a pair costs a
    // tuple-metadata lookup per element.
    if old.count == count {
      var inStep = true
      var oldIndex = old.startIndex
      var newIndex = startIndex
      while oldIndex != old.endIndex {
        guard old.keys[oldIndex] == keys[newIndex] else {
          inStep = false
          break
        }
        if old.values[oldIndex] != values[newIndex] {
          edits.entries.append(
            entry(keys[newIndex], old: old.values[oldIndex], new: values[newIndex]))
        }
        old.formIndex(after: &oldIndex)
        formIndex(after: &newIndex)
      }
      if inStep { return edits }
      edits.entries.removeAll()
    }
    var added = 0
    for (key, value) in self {
      if let oldValue = old[key] {
        if oldValue != value { edits.entries.append(entry(key, old: oldValue, new: value)) }
      } else {
        added += 1
        edits.entries.append(entry(key, old: nil, new: value))
      }
    }
    var removed = old.count - (count - added)
    for (key, value) in old where removed > 0 && self[key] == nil {
      removed -= 1
      edits.entries.append(entry(key, old: value, new: nil))
    }
    return edits
  }

  private func entry(_ key: Key, old: Value?, new: Value?) -> KeyEdits.Entry {
    KeyEdits.Entry(key: key, name: Self.memberName(key), old: old, new: new)
  }

  /// The member name `Dictionary.encode(to:)` writes `key` under, if it writes an object.
  private static func memberName(_ key: Key) -> String? {
    if let key = key as? String { return key }
    if let key = key as? Int { return String(key) }
    if let key = key as? any CodingKeyRepresentable { return key.codingKey.stringValue }
    return nil
  }
}

extension Set: WalkableKeyedCollection where Element: Encodable {
  static var isSet: Bool { true }

  func _keyEdits(fromAny old: Any) -> KeyEdits? {
    guard let old = old as? Self else { return nil }
    var edits = KeyEdits()
    var added = 0
    for element in self where !old.contains(element) {
      added += 1
      edits.entries.append(KeyEdits.Entry(key: element, name: nil, old: nil, new: element))
    }
    var removed = old.count - (count - added)
    for element in old where removed > 0 && !contains(element) {
      removed -= 1
      edits.entries.append(KeyEdits.Entry(key: element, name: nil, old: element, new: nil))
    }
    return edits
  }
}
