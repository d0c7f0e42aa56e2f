import Foundation
import TraceJSON

/// Learns the Swift types behind the values a recorder encodes, for the trace's `types`.
///
/// It walks a value through its own `Encoder`, which sees every member's static type (as the
/// generic parameter of `encode(_:forKey:)`) and, through `Mirror`, whether a type is an enum.
/// What it learns is kept, and what is new since the last call to ``takeNewFacts()`` is handed
/// out, so each fact is written once. It runs on the recorder's thread, and only for values
/// that can hold something new, so the app does not pay for it.
///
/// Nothing is learned from a value that the redaction rules hide: a member there is described
/// by its static type's name alone, so the raw values of an enum (which can be secrets, like a
/// URL with credentials) and the keys a custom encoding writes never reach `types`.
final class TypeCapture {
  /// How many elements of a collection are walked.
  static let elementSample = 16

  private(set) var schema = TypeSchema()
  private var newFacts = TypeSchema()
  private let redactions: [Redaction]
  /// Whether the value being learned is a state, where path rules apply too.
  private var isState = true

  /// A capture that learns nothing from what `redactions` hide.
  init(redactions: [Redaction] = []) {
    self.redactions = redactions
  }

  /// Learns the types that make up `value`, a state when `isState` (path rules apply) or an
  /// action.
  func learn<T: Encodable>(from value: T, isState: Bool = true) {
    self.isState = isState
    _ = visit(value, at: [])
  }

  /// Whether the rules hide the value at `location` (object keys and array indices).
  func isRedacted(_ location: [String]) -> Bool {
    Redaction.covers(redactions, location: location, isState: isState)
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

  /// The types whose metadata was read already.
  private var readTypes: Set<String> = []

  /// Notes, once per type, what a test needs to write a value of `type` as Swift: a struct's
  /// stored properties (names in declaration order, `let` or `var`, from its metadata), and
  /// whether the type is `Decodable`.
  func noteSwiftFacts(for type: String, of value: Any, isStruct: Bool) {
    guard readTypes.insert(type).inserted else { return }
    let dynamicType = Swift.type(of: value)
    if isStruct, let properties = StoredProperties.of(dynamicType) {
      let fields = properties.map { TypeSchema.Field(name: $0.name, isLet: !$0.isVar) }
      if schema.noteFields(fields, for: type) { newFacts.noteFields(fields, for: type) }
    }
    if dynamicType is any Decodable.Type, schema.noteDecodable(type) {
      newFacts.noteDecodable(type)
    }
  }

  /// Walks `value`, found at `location`, noting what its type is made of; returns its type
  /// (`Type?` if optional). A value the rules hide is not walked.
  func visit<T: Encodable>(_ value: T, at location: [String]) -> String {
    let name = recordedTypeName(T.self)
    if JSONValue.scalar(encoding: value) != nil || T.self == IndexSet.self { return name }
    if !redactions.isEmpty, isRedacted(location) { return name }
    // A value recorded by reflection is described as the value it wraps.
    let subject: Any = (value as? any ReflectedBox)?.wrappedValue ?? value
    let style = Mirror(reflecting: subject).displayStyle
    let node = TypeCaptureNode(
      capture: self, type: name, style: style, value: subject, location: location)
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
  /// Where the value lies in the state or action: object keys and array indices.
  let location: [String]
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]

  /// What the value's containers saw.
  var members: [TypeSchema.Member] = []
  var cases: [(name: String, payload: [TypeSchema.Member])] = []
  var element: String?
  var single: (json: JSONValue?, type: String)?

  init(
    capture: TypeCapture, type: String, style: Mirror.DisplayStyle?, value: Any,
    location: [String]
  ) {
    self.capture = capture
    self.type = type
    self.style = style
    self.value = value
    self.location = location
  }

  /// A node whose findings are dropped: for containers the capture does not describe.
  static func scratch(_ capture: TypeCapture, at location: [String]) -> TypeCaptureNode {
    TypeCaptureNode(capture: capture, type: "", style: nil, value: (), location: location)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(TypeCaptureKeyed<Key>(node: self, enumCase: nil, prefix: []))
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
    if style != .enum, let single, let json = single.json, members.isEmpty {
      // An id encoded as its integer or string, that tests can write as a literal.
      switch json {
      case .integer, .unsignedInteger:
        if value is any ExpressibleByIntegerLiteral { capture.note(.literal(.integer), for: type) }
      case .string:
        if value is any ExpressibleByStringLiteral { capture.note(.literal(.string), for: type) }
      default:
        break
      }
      return type
    }
    if style == .enum || style == .struct {
      capture.noteSwiftFacts(for: type, of: value, isStruct: style == .struct)
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
    } else if style == .struct, single == nil, Mirror(reflecting: value).children.isEmpty {
      // An empty struct, encoded as `{}`: a test writes it `Empty()`.
      capture.note(.structure([]), for: type)
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
  /// The keys of the containers this one is nested in, within its node's value.
  let prefix: [String]
  var codingPath: [any CodingKey] { [] }

  /// Where a member with this key lies: an enum case's payload sits under the case's name.
  private func location(of key: Key) -> [String] {
    node.location + prefix + [key.stringValue]
  }

  private func add<T: Encodable>(_ value: T, _ key: Key, optional: Bool = false) {
    // A dictionary's values share one type: a sample describes it, as for arrays, and walking
    // every value of a large one (each checked against the members so far) is what would cost.
    if node.style == .dictionary, node.members.count >= TypeCapture.elementSample { return }
    let type = node.capture.visit(value, at: location(of: key))
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
      name: key.stringValue, type: recordedTypeName(T.self), isOptional: true
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
      TypeCaptureKeyed<NestedKey>(
        node: node, enumCase: enumCase == nil ? key.stringValue : "",
        prefix: prefix + [key.stringValue])
    )
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TypeCaptureUnkeyed(node: .scratch(node.capture, at: location(of: key)))
  }

  mutating func superEncoder() -> any Encoder {
    TypeCaptureNode.scratch(node.capture, at: node.location + ["super"])
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    TypeCaptureNode.scratch(node.capture, at: location(of: key))
  }
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
    let type = node.capture.visit(value, at: node.location + [String(count - 1)])
    if node.element == nil { node.element = type }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    count += 1
    return TypeCaptureNode.scratch(node.capture, at: node.location + [String(count - 1)])
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    count += 1
    return TypeCaptureUnkeyed(
      node: .scratch(node.capture, at: node.location + [String(count - 1)]))
  }

  mutating func superEncoder() -> any Encoder {
    count += 1
    return TypeCaptureNode.scratch(node.capture, at: node.location + [String(count - 1)])
  }
}

private struct TypeCaptureSingle: SingleValueEncodingContainer {
  let node: TypeCaptureNode
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws { node.single = (nil, node.type) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    // The value takes this value's place, so it lies where this one does.
    let type = node.capture.visit(value, at: node.location)
    node.single = (JSONValue.scalar(encoding: value), type)
  }
}
