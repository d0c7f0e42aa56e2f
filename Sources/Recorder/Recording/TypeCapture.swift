import Foundation

/// Learns the Swift types behind the values a recorder encodes, for the trace's `types`.
///
/// It walks a value through its own `Encoder`, which sees every member's static type (as the
/// generic parameter of `encode(_:forKey:)`) and, through `Mirror`, whether a type is an enum.
/// What it learns is kept, and what is new since the last call to ``takeNewFacts()`` is handed
/// out, so each fact is written once. It runs on the recorder's thread, and only for values
/// that can hold something new, so the app does not pay for it.
final class TypeCapture {
  /// How many elements of a collection are walked.
  static let elementSample = 16

  private(set) var schema = TypeSchema()
  private var newFacts = TypeSchema()

  /// Learns the types that make up `value`.
  func learn<T: Encodable>(from value: T) {
    _ = visit(value)
  }

  /// What was learned since the last call, as a `types` member; `nil` when nothing was.
  func takeNewFacts() -> JSONValue? {
    guard !newFacts.types.isEmpty else { return nil }
    defer { newFacts = TypeSchema() }
    return newFacts.json
  }

  func note(_ description: TypeSchema.Description, for type: String) {
    if schema.merge(description, into: type) {
      newFacts.merge(description, into: type)
    }
  }

  /// Walks `value`, noting what its type is made of; returns its type (`Type?` if optional).
  func visit<T: Encodable>(_ value: T) -> String {
    let name = String(reflecting: T.self)
    if JSONEncodingNode.scalar(value) != nil || T.self == IndexSet.self { return name }
    let style = Mirror(reflecting: value).displayStyle
    let node = TypeCaptureNode(capture: self, type: name, style: style, value: value)
    try? value.encode(to: node)
    return node.finish()
  }
}

/// The encoder a ``TypeCapture`` walks one value with.
final class TypeCaptureNode: Encoder {
  let capture: TypeCapture
  let type: String
  let style: Mirror.DisplayStyle?
  let value: Any
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]

  /// What the value's containers saw.
  var members: [TypeSchema.Member] = []
  var cases: [(name: String, payload: [TypeSchema.Member])] = []
  var element: String?
  var single: (json: JSONValue?, type: String)?

  init(capture: TypeCapture, type: String, style: Mirror.DisplayStyle?, value: Any) {
    self.capture = capture
    self.type = type
    self.style = style
    self.value = value
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(TypeCaptureKeyed<Key>(node: self, enumCase: nil))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    TypeCaptureUnkeyed(node: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    TypeCaptureSingle(node: self)
  }

  /// Notes the value's description; returns its type name as a member refers to it.
  func finish() -> String {
    if style == .optional {
      // An optional encodes its wrapped value (or nil) straight into this node.
      return single.map { $0.type.hasSuffix("?") ? $0.type : $0.type + "?" } ?? type
    }
    if style == .enum, !cases.isEmpty {
      capture.note(.enumeration(cases), for: type)
    } else if style == .enum, let single, let json = single.json {
      capture.note(.rawEnumeration([(raw: json.jsonString, name: "\(value)")]), for: type)
    } else if style == .dictionary, let valueType = members.first?.type {
      capture.note(.dictionary(value: valueType), for: type)
    } else if !members.isEmpty {
      // A struct encoded under other names than its properties (renamed `CodingKeys`, a
      // custom `encode(to:)`) is left undescribed: a test then decodes it whole rather than
      // writing `$0.account.display_name`.
      guard style != .struct || encodesStoredProperties() else { return type }
      capture.note(.structure(members), for: type)
    } else if let element {
      capture.note(.collection(element: element), for: type)
    }
    return type
  }

  /// Whether every encoded member is named after a stored property (a property wrapper's
  /// storage, `_name`, is encoded as `name`).
  private func encodesStoredProperties() -> Bool {
    let properties = Set(
      Mirror(reflecting: value).children.compactMap(\.label).map {
        $0.hasPrefix("_") ? String($0.dropFirst()) : $0
      }
    )
    return members.allSatisfy { properties.contains($0.name) }
  }

  func addMember(_ member: TypeSchema.Member, toCase enumCase: String?) {
    guard let enumCase else {
      if !members.contains(where: { $0.name == member.name }) { members.append(member) }
      return
    }
    if let index = cases.firstIndex(where: { $0.name == enumCase }) {
      cases[index].payload.append(member)
    }
  }
}

private struct TypeCaptureKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: TypeCaptureNode
  /// The case whose payload this container holds, for an enum's nested container.
  let enumCase: String?
  var codingPath: [any CodingKey] { [] }

  private func add<T: Encodable>(_ value: T, _ key: Key, optional: Bool = false) {
    let type = node.capture.visit(value)
    let isOptional = optional || type.hasSuffix("?")
    let member = TypeSchema.Member(
      name: key.stringValue,
      type: isOptional && type.hasSuffix("?") ? String(type.dropLast()) : type,
      isOptional: isOptional
    )
    node.addMember(member, toCase: enumCase)
  }

  private func addAbsent<T>(_ type: T.Type, _ key: Key) {
    let member = TypeSchema.Member(
      name: key.stringValue, type: String(reflecting: T.self), isOptional: true
    )
    node.addMember(member, toCase: enumCase)
  }

  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode(_ value: Bool, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { add(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { add(value, key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { add(value, key) }

  // Optionals are described even when nil: the type is known without a value.
  private func ifPresent<T: Encodable>(_ value: T?, _ key: Key) {
    if let value { add(value, key, optional: true) } else { addAbsent(T.self, key) }
  }
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { ifPresent(value, key) }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    ifPresent(value, key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    // Synthesized enum conformances encode a case as a nested container named after it.
    if node.style == .enum, enumCase == nil,
      !node.cases.contains(where: { $0.name == key.stringValue })
    {
      node.cases.append((name: key.stringValue, payload: []))
    }
    return KeyedEncodingContainer(
      TypeCaptureKeyed<NestedKey>(node: node, enumCase: enumCase == nil ? key.stringValue : "")
    )
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TypeCaptureUnkeyed(
      node: TypeCaptureNode(capture: node.capture, type: "", style: nil, value: ()))
  }

  mutating func superEncoder() -> any Encoder {
    TypeCaptureNode(capture: node.capture, type: "", style: nil, value: ())
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}

private struct TypeCaptureUnkeyed: UnkeyedEncodingContainer {
  let node: TypeCaptureNode
  var codingPath: [any CodingKey] { [] }
  var count = 0

  mutating func encodeNil() throws { count += 1 }
  mutating func encode<T: Encodable>(_ value: T) throws {
    count += 1
    // A sample describes the elements' type: every member, optional or not, of a struct
    // element is described by any one of them. Walking all of a large list is what would
    // cost, and what the sample misses is only a literal the generator then decodes.
    guard count <= TypeCapture.elementSample else { return }
    let type = node.capture.visit(value)
    if node.element == nil { node.element = type }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    count += 1
    return TypeCaptureNode(capture: node.capture, type: "", style: nil, value: ())
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    count += 1
    return TypeCaptureUnkeyed(
      node: TypeCaptureNode(capture: node.capture, type: "", style: nil, value: ())
    )
  }

  mutating func superEncoder() -> any Encoder {
    TypeCaptureNode(capture: node.capture, type: "", style: nil, value: ())
  }
}

private struct TypeCaptureSingle: SingleValueEncodingContainer {
  let node: TypeCaptureNode
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws { node.single = (nil, node.type) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let type = node.capture.visit(value)
    node.single = (JSONEncodingNode.scalar(value), type)
  }
}
