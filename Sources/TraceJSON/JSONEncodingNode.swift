import Foundation

/// The `Encoder` behind `JSONValueEncoder`: one node per value being encoded.
///
/// A node collects what its containers write, as a single value, an object or an array.
/// Nested containers and super-encoders get child nodes that leave a placeholder in their
/// parent and are folded back in when the parent's value is taken, which is what keeps member
/// order equal to the order keys were first written. Nodes are used only during one top-level
/// `encode` call and never escape it.
final class JSONEncodingNode: Encoder {
  enum Kind {
    case empty
    case single
    case object
    case array
  }

  /// Where a child node's value goes in this node once it is finished.
  enum Slot {
    case member(String)
    case element(Int)
  }

  let parent: JSONEncodingNode?
  let component: JSONCodingPathComponent?
  let userInfo: [CodingUserInfoKey: Any]

  // A node is used by one encoding call on one thread, and no access to these properties spans
  // a call that could reach the same node again, so the dynamic exclusivity checks (a
  // measurable share of encoding time) are turned off for them.
  @exclusivity(unchecked) var kind = Kind.empty
  @exclusivity(unchecked) var single = JSONValue.null
  @exclusivity(unchecked) var object = JSONObject()
  @exclusivity(unchecked) var array: [JSONValue] = []
  @exclusivity(unchecked) var pending: [(slot: Slot, node: JSONEncodingNode)] = []
  /// Set when a container was requested that a `Dictionary` or `Set` could have used: an
  /// unkeyed one, or a keyed one whose key type is not a plain enum. Only then is the (slower)
  /// check for those types made.
  @exclusivity(unchecked) var mayBeUnordered = false

  init(
    parent: JSONEncodingNode?,
    component: JSONCodingPathComponent?,
    userInfo: [CodingUserInfoKey: Any]
  ) {
    self.parent = parent
    self.component = component
    self.userInfo = userInfo
  }

  convenience init(parent: JSONEncodingNode, component: JSONCodingPathComponent?, kind: Kind) {
    self.init(parent: parent, component: component, userInfo: parent.userInfo)
    self.kind = kind
  }

  /// The path of the root node's value within a larger value, when the root encodes part of
  /// one (as the state differ does); empty otherwise. Only the root's is read.
  var basePath: [any CodingKey] = []

  var codingPath: [any CodingKey] {
    var path: [any CodingKey] = []
    var node = self
    while true {
      if let component = node.component { path.append(component.codingKey) }
      guard let parent = node.parent else { break }
      node = parent
    }
    return node.basePath + path.reversed()
  }

  // MARK: Containers

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // Synthesized and hand-written `CodingKeys` enums are at most a byte; the dictionary key
    // type is a struct holding a string.
    if MemoryLayout<Key>.size > 1 { mayBeUnordered = true }
    if kind != .object {
      kind = .object
      // Most encoded types have a handful of properties: one allocation instead of regrowth.
      object = JSONObject(minimumCapacity: 8)
    }
    return KeyedEncodingContainer(JSONKeyedEncodingContainer<Key>(node: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    mayBeUnordered = true
    if kind != .array {
      kind = .array
      array = []
    }
    return JSONUnkeyedEncodingContainer(node: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    self
  }

  /// Makes a child node whose value will be stored at `slot` when this node is finished.
  func makeChild(
    at slot: Slot,
    component: JSONCodingPathComponent,
    kind: Kind
  ) -> JSONEncodingNode {
    let child = JSONEncodingNode(parent: self, component: component, kind: kind)
    pending.append((slot, child))
    return child
  }

  /// The value encoded into this node, with every nested container folded in; `nil` if
  /// nothing was encoded.
  func finish() -> JSONValue? {
    if !pending.isEmpty {
      for (slot, child) in pending {
        let value = child.finish() ?? .object(JSONObject())
        switch slot {
        case .member(let key): object[key] = value
        case .element(let index): array[index] = value
        }
      }
      pending = []
    }
    // Values are moved out, so the result holds the only reference to its storage.
    switch kind {
    case .empty:
      return nil
    case .single:
      defer { single = .null }
      return single
    case .object:
      defer { object = JSONObject() }
      return .object(object)
    case .array:
      defer { array = [] }
      return .array(array)
    }
  }

  // MARK: Values

  /// Encodes `value` as the value of a new child node at `component` and returns it.
  @inline(__always)
  func box<T: Encodable>(_ value: T, at component: JSONCodingPathComponent) throws -> JSONValue {
    if let scalar = Self.scalar(value) { return scalar }
    let child = JSONEncodingNode(parent: self, component: component, userInfo: userInfo)
    try value.encode(to: child)
    var result = child.finish() ?? .object(JSONObject())
    if child.mayBeUnordered && result.mayNeedSorting,
      let unordered = T.self as? any JSONUnorderedCollection.Type
    {
      JSONValueEncoder.sortUnordered(&result, isDictionary: unordered.isJSONDictionary)
    }
    return result
  }

  /// The JSON for values that have a fixed JSON form: numbers, strings, `UUID`, `Date`, `URL`,
  /// `Data` and `JSONValue` itself. `nil` for everything else.
  @inline(__always)
  static func scalar<T: Encodable>(_ value: T) -> JSONValue? {
    if T.self == UUID.self {
      return .string(unsafeBitCast(value, to: UUID.self).fastUppercaseString)
    }
    if T.self == String.self { return .string(value as! String) }
    if T.self == Date.self { return date(unsafeBitCast(value, to: Date.self)) }
    if T.self == Int.self { return .integer(Int64(unsafeBitCast(value, to: Int.self))) }
    if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    if T.self == Double.self { return double(unsafeBitCast(value, to: Double.self)) }
    if T.self == JSONValue.self { return value as? JSONValue }
    if T.self == JSONObject.self { return .object(value as! JSONObject) }
    if T.self == Int64.self { return .integer(unsafeBitCast(value, to: Int64.self)) }
    if T.self == Int32.self { return .integer(Int64(unsafeBitCast(value, to: Int32.self))) }
    if T.self == Int16.self { return .integer(Int64(unsafeBitCast(value, to: Int16.self))) }
    if T.self == Int8.self { return .integer(Int64(unsafeBitCast(value, to: Int8.self))) }
    if T.self == UInt.self { return .number(UInt64(unsafeBitCast(value, to: UInt.self))) }
    if T.self == UInt64.self { return .number(unsafeBitCast(value, to: UInt64.self)) }
    if T.self == UInt32.self { return .integer(Int64(unsafeBitCast(value, to: UInt32.self))) }
    if T.self == UInt16.self { return .integer(Int64(unsafeBitCast(value, to: UInt16.self))) }
    if T.self == UInt8.self { return .integer(Int64(unsafeBitCast(value, to: UInt8.self))) }
    if T.self == Float.self { return float(unsafeBitCast(value, to: Float.self)) }
    if T.self == URL.self { return .string((value as! URL).absoluteString) }
    if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
    return nil
  }

  /// A double, or for non-finite values the strings `NaN`, `Infinity` and `-Infinity`.
  @inline(__always)
  static func double(_ value: Double) -> JSONValue {
    if value.isFinite { return .double(value) }
    return .string(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity")
  }

  /// A float, stored as the double nearest its shortest decimal form.
  ///
  /// The text stays short (`0.1`, not `0.10000000149011612`) and still reads back as the same
  /// float.
  static func float(_ value: Float) -> JSONValue {
    guard value.isFinite else { return double(Double(value)) }
    return .double(Double(value.description) ?? Double(value))
  }

  /// A date as its `timeIntervalSinceReferenceDate`, like Foundation's default strategy.
  @inline(__always)
  static func date(_ value: Date) -> JSONValue {
    double(value.timeIntervalSinceReferenceDate)
  }
}

extension JSONValue {
  /// Whether sorting could change this encoded collection: an object or array of 2+ members.
  @inline(__always)
  fileprivate var mayNeedSorting: Bool {
    switch self {
    case .object(let object): object.count > 1
    case .array(let elements): elements.count > 1
    default: false
    }
  }
}

extension JSONEncodingNode: SingleValueEncodingContainer {
  private func setSingle(_ value: JSONValue) {
    kind = .single
    single = value
  }

  func encodeNil() throws { setSingle(.null) }
  func encode(_ value: Bool) throws { setSingle(.bool(value)) }
  func encode(_ value: String) throws { setSingle(.string(value)) }
  func encode(_ value: Double) throws { setSingle(Self.double(value)) }
  func encode(_ value: Float) throws { setSingle(Self.float(value)) }
  func encode(_ value: Int) throws { setSingle(.integer(Int64(value))) }
  func encode(_ value: Int8) throws { setSingle(.integer(Int64(value))) }
  func encode(_ value: Int16) throws { setSingle(.integer(Int64(value))) }
  func encode(_ value: Int32) throws { setSingle(.integer(Int64(value))) }
  func encode(_ value: Int64) throws { setSingle(.integer(value)) }
  func encode(_ value: UInt) throws { setSingle(.number(UInt64(value))) }
  func encode(_ value: UInt8) throws { setSingle(.integer(Int64(value))) }
  func encode(_ value: UInt16) throws { setSingle(.integer(Int64(value))) }
  func encode(_ value: UInt32) throws { setSingle(.integer(Int64(value))) }
  func encode(_ value: UInt64) throws { setSingle(.number(value)) }

  func encode<T: Encodable>(_ value: T) throws {
    if let scalar = Self.scalar(value) {
      setSingle(scalar)
      return
    }
    // The value is this node's value, so it encodes straight into this node.
    try value.encode(to: self)
    // `finish` moves the value out: it goes back whether or not it needed sorting (a
    // one-member dictionary in an optional was lost).
    if mayBeUnordered, let unordered = T.self as? any JSONUnorderedCollection.Type,
      var result = finish()
    {
      if result.mayNeedSorting {
        JSONValueEncoder.sortUnordered(&result, isDictionary: unordered.isJSONDictionary)
      }
      setSingle(result)
    }
  }
}

extension JSONValue {
  /// The JSON of a value that has a fixed JSON form (see `JSONEncodingNode.scalar`), else nil.
  @inline(__always)
  package static func scalar<T: Encodable>(encoding value: T) -> JSONValue? {
    JSONEncodingNode.scalar(value)
  }
}
