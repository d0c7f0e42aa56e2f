import Architecture
import Synchronization
import TraceJSON

/// A value of any type, made `Codable` by reflection: how a recorder writes, and a replay host
/// rebuilds, the states and actions of an app that declares no conformance for the tool.
///
/// A value whose type has its own `Encodable` (or `Decodable`) conformance uses it, at any
/// depth, so it is written exactly as the typed path writes it. Any other value is written as
/// synthesized `Codable` would write it: a struct as an object of its stored properties (a
/// property wrapper's storage `_name` as `name`, `nil` optionals left out), an enum case as
/// `{"case": {"_0": …, "label": …}}`, collections and `Architecture`'s generic types in their
/// usual forms (``ReflectedForm``). What reflection cannot rebuild (a class, a closure, an
/// existential other than an error) is written `{"$opaque": "TypeName"}`, and rebuilding it
/// fails with an error naming its place.
// unchecked: a state or action for the writer; TCA does not require them Sendable
package struct Reflected<Value>: @unchecked Sendable {
  package var value: Value

  package init(_ value: Value) {
    self.value = value
  }
}

/// What the recorder and replay need of a ``Reflected`` value without knowing its type.
protocol ReflectedBox {
  /// The wrapped value's type.
  static var wrappedType: Any.Type { get }
  /// The wrapped value.
  var wrappedValue: Any { get }
}

extension Reflected: ReflectedBox {
  static var wrappedType: Any.Type { Value.self }
  package var wrappedValue: Any { value }
}

/// The name a trace gives `type`: a ``Reflected`` value is named after the type it wraps, at
/// any depth (`Optional<Reflected<Alert>>` is `Optional<Alert>`).
func recordedTypeName(_ type: Any.Type) -> String {
  // Cached: the type capture names every value of a first state, a thousand todos' worth, and a
  // name costs `String(reflecting:)` and a search (4% of a typed recording under callgrind).
  let key = ObjectIdentifier(type)
  if let name = recordedTypeNames.withLock({ $0[key] }) { return name }
  let name = uncachedRecordedTypeName(type)
  recordedTypeNames.withLock { $0[key] = name }
  return name
}

private let recordedTypeNames = Mutex<[ObjectIdentifier: String]>([:])

private func uncachedRecordedTypeName(_ type: Any.Type) -> String {
  if let box = type as? any ReflectedBox.Type { return recordedTypeName(box.wrappedType) }
  var name = String(reflecting: type)
  let marker = "Recorder.Reflected<"
  while let start = name.range(of: marker) {
    // Drop the marker and the `>` that closes it.
    var depth = 1
    var index = start.upperBound
    while index < name.endIndex, depth > 0 {
      if name[index] == "<" { depth += 1 } else if name[index] == ">" { depth -= 1 }
      if depth > 0 { index = name.index(after: index) }
    }
    guard index < name.endIndex else { break }
    name.remove(at: index)
    name.removeSubrange(start)
  }
  return name
}

extension Reflected: Encodable {
  package func encode(to encoder: any Encoder) throws {
    try ReflectionEncoding.encode(value, to: encoder)
  }
}

/// A set or dictionary written by reflection is sorted as the collection it wraps: in hash order,
/// which changes as it grows, a keyframe would differ from the state the patches rebuild.
extension Reflected: JSONUnorderedCollection where Value: JSONUnorderedCollection {
  package static var isJSONDictionary: Bool { Value.isJSONDictionary }
}

extension Reflected: Decodable {
  package init(from decoder: any Decoder) throws {
    if !(Value.self is any ReflectedFirst.Type), let decodable = Value.self as? any Decodable.Type {
      value = try decodable.init(from: decoder) as! Value
      return
    }
    let json = try JSONValue(from: decoder)
    value = try ReflectionDecoding.build(
      Value.self, from: json, at: decoder.codingPath, decoder: .carrying(decoder.userInfo)
    ) as! Value
  }
}

extension Reflected: Equatable {
  /// Compares with the wrapped type's `==`; values of a type that is not `Equatable` are never
  /// equal, so a recorder re-encodes them rather than trust an unchanged look.
  package static func == (lhs: Self, rhs: Self) -> Bool {
    guard let equatable = Value.self as? any Equatable.Type else { return false }
    return equatable.areEqual(lhs.value, rhs.value)
  }
}

extension Reflected: Hashable {
  package func hash(into hasher: inout Hasher) {
    if let hashable = value as? any Hashable { hasher.combine(AnyHashable(hashable)) }
  }
}

extension Equatable {
  fileprivate static func areEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    guard let lhs = lhs as? Self, let rhs = rhs as? Self else { return false }
    return lhs == rhs
  }
}

/// `value` as an `Encodable`: itself when its type conforms, otherwise in a ``Reflected`` of its
/// dynamic type.
func reflectedEncodable(_ value: Any) -> any Encodable {
  let type = Swift.type(of: value)
  let key = ObjectIdentifier(type)
  if let wrapper = encodableWrappers.withLock({ $0[key] }) { return wrapper.wrap(value) }
  let wrapper = EncodableWrapper(wrap: _openExistential(type, do: encodableWrapper))
  encodableWrappers.withLock { $0[key] = wrapper }
  return wrapper.wrap(value)
}

/// How ``reflectedEncodable(_:)`` wraps a value of each dynamic type met so far, decided once per
/// type: every failed `as? any P` looks the conformance up again (about a thousand instructions
/// under callgrind, two per struct field), a dictionary lookup costs a tenth of that.
private let encodableWrappers = Mutex<[ObjectIdentifier: EncodableWrapper]>([:])

/// A wrapper closure; it captures only a type.
// unchecked: the closure captures only a type, and metatypes of generic types are not Sendable
private struct EncodableWrapper: @unchecked Sendable {
  let wrap: (Any) -> any Encodable
}

/// The wrapper of values of type `Value`, by the same rules and in the same order as the casts
/// it stands for: a ``ReflectedFirst`` value's own form, an `Encodable` as itself, any other in a
/// ``Reflected``.
private func encodableWrapper<Value>(_: Value.Type) -> (Any) -> any Encodable {
  if Value.self is any ReflectedFirst.Type {
    return { ($0 as! any ReflectedFirst).reflectedEncodable }
  }
  if let encodable = Value.self as? any Encodable.Type {
    func asItself<E: Encodable>(_: E.Type) -> (Any) -> any Encodable {
      { $0 as! E }
    }
    return _openExistential(encodable, do: asItself)
  }
  return { Reflected($0 as! Value) }
}
