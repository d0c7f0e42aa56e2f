/// A JSON object: string keys mapped to values, kept in insertion order.
///
/// Serialization writes members in the order they were inserted (for encoded types, the order
/// their coding keys were declared in). Equality ignores that order, as JSON does. Lookup is a
/// short linear scan for small objects and a hash lookup once an object grows past a dozen
/// members.
///
/// Setting a key that is already present replaces its value and keeps its position.
public struct JSONObject: Sendable {
  /// One member: a key and its value.
  @usableFromInline
  package struct Entry: Sendable {
    @usableFromInline package var key: String
    @usableFromInline package var value: JSONValue

    @inlinable
    package init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// The member count above which lookups go through a hash index instead of a linear scan.
  @usableFromInline
  static let indexThreshold = 12

  /// The members in insertion order.
  @usableFromInline
  package var entries: [Entry]

  /// Key to position in `entries`; empty while the object is small enough to scan.
  @usableFromInline
  var index: [String: Int]

  /// Makes an empty object.
  @inlinable
  public init() {
    entries = []
    index = [:]
  }

  /// Makes an empty object with room for `capacity` members.
  public init(minimumCapacity capacity: Int) {
    entries = []
    entries.reserveCapacity(capacity)
    index = [:]
  }

  /// Makes an object from key-value pairs in order; a repeated key keeps its first position and
  /// its last value.
  public init(_ members: some Sequence<(String, JSONValue)>) {
    self.init()
    for (key, value) in members {
      self[key] = value
    }
  }

  /// The number of members.
  @inlinable
  public var count: Int { entries.count }

  /// Whether the object has no members.
  @inlinable
  public var isEmpty: Bool { entries.isEmpty }

  /// The keys in insertion order.
  public var keys: [String] { entries.map(\.key) }

  /// The values in insertion order.
  public var values: [JSONValue] { entries.map(\.value) }

  /// The position of the member named `key`, if present.
  @inlinable
  public func position(ofKey key: String) -> Int? {
    if index.isEmpty {
      return entries.withUnsafeBufferPointer { buffer in
        for position in buffer.indices where buffer[position].key == key {
          return position
        }
        return nil
      }
    }
    return index[key]
  }

  /// Whether a member named `key` is present.
  @inlinable
  public func contains(key: String) -> Bool {
    position(ofKey: key) != nil
  }

  /// The value of the member named `key`; setting `nil` removes the member.
  @inlinable
  public subscript(key: String) -> JSONValue? {
    get {
      guard let position = position(ofKey: key) else { return nil }
      return entries[position].value
    }
    set {
      if let newValue {
        setValue(newValue, forKey: key)
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// Sets the member named `key`, appending it if new (the setter behind the subscript).
  @inlinable
  mutating func setValue(_ value: JSONValue, forKey key: String) {
    if let position = position(ofKey: key) {
      entries[position].value = value
    } else {
      appendNew(key: key, value: value)
    }
  }

  /// Sets the member named `key`, appending it if new; returns the value it replaced, if any.
  @inlinable
  @discardableResult
  public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
    if let position = position(ofKey: key) {
      let old = entries[position].value
      entries[position].value = value
      return old
    }
    appendNew(key: key, value: value)
    return nil
  }

  /// Appends a member whose key the caller knows is not present yet.
  @inlinable
  mutating func appendNew(key: String, value: JSONValue) {
    entries.append(Entry(key: key, value: value))
    if !index.isEmpty {
      index[key] = entries.count - 1
    } else if entries.count > Self.indexThreshold {
      rebuildIndex()
    }
  }

  /// Removes the member named `key`, keeping the others in order; returns its value, if any.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSONValue? {
    guard let position = position(ofKey: key) else { return nil }
    return remove(at: position).value
  }

  /// Removes the member at `position` (an index into the insertion order) and returns it.
  @discardableResult
  public mutating func remove(at position: Int) -> (key: String, value: JSONValue) {
    let removed = entries.remove(at: position)
    if entries.count <= Self.indexThreshold {
      index = [:]
    } else {
      index[removed.key] = nil
      for later in position..<entries.count {
        index[entries[later].key] = later
      }
    }
    return (removed.key, removed.value)
  }

  /// Reorders the members so their keys ascend in UTF-8 byte order (used for dictionaries).
  package mutating func sortKeys() {
    entries.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    if !index.isEmpty { rebuildIndex() }
  }

  /// Calls `body` with the value of the member at `position`, in place.
  @inlinable
  package mutating func modifyValue<R, E: Error>(
    at position: Int,
    _ body: (inout JSONValue) throws(E) -> R
  ) throws(E) -> R {
    try body(&entries[position].value)
  }

  @usableFromInline
  mutating func rebuildIndex() {
    var newIndex = [String: Int](minimumCapacity: entries.count)
    for (position, entry) in entries.enumerated() {
      newIndex[entry.key] = position
    }
    index = newIndex
  }

  /// Strict comparison used by diffing: same keys, identical values, order ignored.
  package func isIdentical(to other: JSONObject) -> Bool {
    guard count == other.count else { return false }
    for (position, entry) in entries.enumerated() {
      let otherValue: JSONValue
      if other.entries[position].key == entry.key {
        otherValue = other.entries[position].value
      } else if let found = other[entry.key] {
        otherValue = found
      } else {
        return false
      }
      if !entry.value.isIdentical(to: otherValue) { return false }
    }
    return true
  }
}

extension JSONObject: Equatable {
  /// Objects are equal when they have the same keys with equal values, in any order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for (position, entry) in lhs.entries.enumerated() {
      let otherValue: JSONValue
      if rhs.entries[position].key == entry.key {
        otherValue = rhs.entries[position].value
      } else if let found = rhs[entry.key] {
        otherValue = found
      } else {
        return false
      }
      if entry.value != otherValue { return false }
    }
    return true
  }
}

extension JSONObject: Hashable {
  /// Hashes the members independently of their order, consistent with `==`.
  public func hash(into hasher: inout Hasher) {
    var combined = 0
    for entry in entries {
      var memberHasher = Hasher()
      memberHasher.combine(entry.key)
      memberHasher.combine(entry.value)
      combined = combined &+ memberHasher.finalize()
    }
    hasher.combine(count)
    hasher.combine(combined)
  }
}

extension JSONObject: RandomAccessCollection {
  /// A member as a key and its value.
  public typealias Element = (key: String, value: JSONValue)

  /// The position of the first member in insertion order.
  @inlinable
  public var startIndex: Int { 0 }

  /// The position past the last member.
  @inlinable
  public var endIndex: Int { entries.count }

  /// The member at `position` in insertion order.
  @inlinable
  public subscript(position: Int) -> (key: String, value: JSONValue) {
    let entry = entries[position]
    return (entry.key, entry.value)
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// Makes an object from a literal, keeping the literal's order; a repeated key keeps its last
  /// value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}

extension JSONObject: CustomStringConvertible {
  /// The compact JSON text of the object.
  public var description: String { JSONValue.object(self).jsonString }
}
