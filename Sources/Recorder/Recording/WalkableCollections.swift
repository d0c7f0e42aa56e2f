import Foundation
import TraceJSON

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

// Elements that are not `Encodable` are written by reflection, as the array's form writes them.
extension Array: WalkableArray where Element: Equatable {
  func _arrayEdits(fromAny old: Any) -> ArrayEdits? {
    guard let old = old as? [Element] else { return nil }
    return withUnsafeBufferPointer { new in
      old.withUnsafeBufferPointer { old in ArrayEdits(from: old, to: new) }
    }
  }

  func _encodable(at position: Int) -> any Encodable { Recorder.reflectedEncodable(self[position]) }
}

extension ArrayEdits {
  /// The edits from `old` to `new`, elements compared by their bytes first and with `==` only
  /// where the bytes differ (``RawBytes``).
  init<Element: Equatable>(from old: UnsafeBufferPointer<Element>, to new: UnsafeBufferPointer<Element>) {
    let runs = ElementRuns(old, new)
    let shorter = Swift.min(old.count, new.count)
    let prefix = runs.equalCount(old: 0, new: 0, upTo: shorter)
    let suffix = runs.equalCountBackwards(oldEnd: old.count, newEnd: new.count, upTo: shorter - prefix)
    let oldEnd = old.count - suffix
    let newEnd = new.count - suffix
    self.init(prefix: prefix, oldEnd: oldEnd, newEnd: newEnd, move: nil, changed: [])
    if oldEnd == newEnd, oldEnd - prefix >= 2 {
      let last = oldEnd - 1
      let span = last - prefix
      if runs.same(old: prefix, new: last),
        runs.equalCount(old: prefix + 1, new: prefix, upTo: span) == span
      {
        move = (prefix, last)
        return
      }
      if runs.same(old: last, new: prefix),
        runs.equalCount(old: prefix, new: prefix + 1, upTo: span) == span
      {
        move = (last, prefix)
        return
      }
    }
    var position = prefix
    let end = Swift.min(oldEnd, newEnd)
    while position < end {
      position += runs.equalCount(old: position, new: position, upTo: end - position)
      guard position < end else { break }
      changed.append(position)
      position += 1
    }
  }
}

/// Two arrays' elements, compared by bytes and then by `==`.
private struct ElementRuns<Element: Equatable> {
  let old: UnsafeBufferPointer<Element>
  let new: UnsafeBufferPointer<Element>
  let oldBytes: UnsafeRawPointer
  let newBytes: UnsafeRawPointer
  let layout = RawBytes.Layout(of: Element.self)
  var stride: Int { layout.stride }

  init(_ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>) {
    self.old = old
    self.new = new
    // An empty buffer may have no address; no byte of it is read then.
    let nowhere = UnsafeRawPointer(bitPattern: MemoryLayout<Element>.alignment)!
    // NB: `if let`, not `map(UnsafeRawPointer.init)`: that closure captures `Element.Type`.
    oldBytes = if let base = old.baseAddress { UnsafeRawPointer(base) } else { nowhere }
    newBytes = if let base = new.baseAddress { UnsafeRawPointer(base) } else { nowhere }
  }

  /// Whether the old element at `oldPosition` equals the new one at `newPosition`.
  func same(old oldPosition: Int, new newPosition: Int) -> Bool {
    RawBytes.equal(oldBytes + oldPosition * stride, newBytes + newPosition * stride, layout)
      || old[oldPosition] == new[newPosition]
  }

  /// How many elements are equal pairwise from the given positions on, at most `limit`.
  func equalCount(old oldStart: Int, new newStart: Int, upTo limit: Int) -> Int {
    var count = 0
    while count < limit {
      count += RawBytes.commonPrefix(
        oldBytes + (oldStart + count) * stride, newBytes + (newStart + count) * stride,
        count: limit - count, layout)
      guard count < limit, old[oldStart + count] == new[newStart + count] else { break }
      count += 1
    }
    return count
  }

  /// How many elements are equal pairwise going back from just before the given positions, at
  /// most `limit`.
  func equalCountBackwards(oldEnd: Int, newEnd: Int, upTo limit: Int) -> Int {
    var count = 0
    while count < limit {
      count += RawBytes.commonSuffix(
        endingAt: oldBytes + (oldEnd - count) * stride, newBytes + (newEnd - count) * stride,
        count: limit - count, layout)
      guard count < limit, old[oldEnd - 1 - count] == new[newEnd - 1 - count] else { break }
      count += 1
    }
    return count
  }
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
    if let edits = bucketEdits(from: old) { return edits }
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

  /// The edits found by comparing the two hash tables bucket by bucket, when both can be read.
  private func bucketEdits(from old: Self) -> KeyEdits? {
    guard let oldTable = NativeHashTable.of(dictionary: old),
      let newTable = NativeHashTable.of(dictionary: self),
      let buckets = NativeHashTable.differingBuckets(
        old: oldTable, new: newTable, key: RawBytes.Layout(of: Key.self),
        value: RawBytes.Layout(of: Value.self))
    else { return nil }
    var edits = KeyEdits()
    for bucket in buckets.new {
      let key = newTable.key(at: bucket, as: Key.self)
      let value = newTable.value(at: bucket, as: Value.self)
      if let oldValue = old[key] {
        if oldValue != value { edits.entries.append(entry(key, old: oldValue, new: value)) }
      } else {
        edits.entries.append(entry(key, old: nil, new: value))
      }
    }
    for bucket in buckets.old {
      let key = oldTable.key(at: bucket, as: Key.self)
      if self[key] == nil {
        edits.entries.append(entry(key, old: oldTable.value(at: bucket, as: Value.self), new: nil))
      }
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
    if let oldTable = NativeHashTable.of(set: old), let newTable = NativeHashTable.of(set: self),
      let buckets = NativeHashTable.differingBuckets(
        old: oldTable, new: newTable, key: RawBytes.Layout(of: Element.self), value: nil)
    {
      for bucket in buckets.new {
        let element = newTable.key(at: bucket, as: Element.self)
        if !old.contains(element) {
          edits.entries.append(KeyEdits.Entry(key: element, name: nil, old: nil, new: element))
        }
      }
      for bucket in buckets.old {
        let element = oldTable.key(at: bucket, as: Element.self)
        if !contains(element) {
          edits.entries.append(KeyEdits.Entry(key: element, name: nil, old: element, new: nil))
        }
      }
      return edits
    }
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
