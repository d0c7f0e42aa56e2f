import Architecture
import Foundation
import TraceJSON

/// A generic type whose recorded form is its `Codable` form, written with ``Reflected``
/// elements when its own are not `Codable`: an array of structs without a conformance is
/// written as an array, an alert whose actions have none as an alert.
///
/// Each conformance maps the value to the same type over ``Reflected`` parameters, which is
/// `Codable`, and back.
protocol ReflectedForm {
  /// The value over `Reflected` parameters, to encode.
  var reflectedEncodable: any Encodable { get }
  /// Decodes the value over `Reflected` parameters from `json`, and maps it back.
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self
}

/// A value that must be written by reflection even when its type is `Encodable`: a binding
/// action's conformance cannot write a value that is not.
protocol ReflectedFirst: ReflectedForm {}

extension Array: ReflectedForm {
  var reflectedEncodable: any Encodable { map(Reflected.init) }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    try decoder.decode([Reflected<Element>].self, from: json).map(\.value)
  }
}

extension ContiguousArray: ReflectedForm {
  var reflectedEncodable: any Encodable { map(Reflected.init) }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    ContiguousArray(try decoder.decode([Reflected<Element>].self, from: json).map(\.value))
  }
}

extension Set: ReflectedForm {
  var reflectedEncodable: any Encodable { Set<Reflected<Element>>(map { Reflected($0) }) }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    Set(try decoder.decode([Reflected<Element>].self, from: json).map(\.value))
  }
}

extension Dictionary: ReflectedForm {
  var reflectedEncodable: any Encodable {
    // String and integer keys keep their conformance, so the dictionary stays an object.
    if let keys = Key.self as? any (Encodable & Hashable).Type {
      return keyed(by: keys)
    }
    return Dictionary<Reflected<Key>, Reflected<Value>>(
      uniqueKeysWithValues: map { (Reflected($0.key), Reflected($0.value)) })
  }

  private func keyed<K: Encodable & Hashable>(by _: K.Type) -> any Encodable {
    [K: Reflected<Value>](uniqueKeysWithValues: map { ($0.key as! K, Reflected($0.value)) })
  }

  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    if let keys = Key.self as? any (Decodable & Hashable).Type {
      return try rebuilt(keyedBy: keys, from: json, decoder: decoder)
    }
    let pairs = try decoder.decode([Reflected<Key>: Reflected<Value>].self, from: json)
    return Dictionary(uniqueKeysWithValues: pairs.map { ($0.key.value, $0.value.value) })
  }

  private static func rebuilt<K: Decodable & Hashable>(
    keyedBy _: K.Type, from json: JSONValue, decoder: JSONValueDecoder
  ) throws -> Self {
    let pairs = try decoder.decode([K: Reflected<Value>].self, from: json)
    return Dictionary(uniqueKeysWithValues: pairs.map { ($0.key as! Key, $0.value.value) })
  }
}

extension IdentifiedArray: ReflectedForm {
  var reflectedEncodable: any Encodable { elements.map(Reflected.init) }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    let elements = try decoder.decode([Reflected<Element>].self, from: json).map(\.value)
    guard let identified = Self.identifiedByID(elements) else {
      throw ReflectionError.cannotRebuild(
        type: String(reflecting: Self.self), path: "/",
        reason: "its elements are not Identifiable by its ID type")
    }
    return identified
  }

  private static func identifiedByID(_ elements: [Element]) -> Self? {
    (Self.self as? any IdentifiedByElementID.Type)?.identifying(elements) as? Self
  }
}

/// An identified array whose elements are `Identifiable` by its `ID`, built from elements
/// rebuilt at run time.
private protocol IdentifiedByElementID {
  static func identifying(_ elements: [Any]) -> Any
}

extension IdentifiedArray: IdentifiedByElementID where Element: Identifiable, ID == Element.ID {
  fileprivate static func identifying(_ elements: [Any]) -> Any {
    Self(uniqueElements: elements.map { $0 as! Element })
  }
}

extension StackState: ReflectedForm {
  var reflectedEncodable: any Encodable {
    var stack = StackState<Reflected<Element>>()
    for (id, element) in zip(ids, self) { stack[id: id] = Reflected(element) }
    return stack
  }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    let reflected = try decoder.decode(StackState<Reflected<Element>>.self, from: json)
    var stack = Self()
    for (id, element) in zip(reflected.ids, reflected) { stack[id: id] = element.value }
    return stack
  }
}

extension PresentationState: ReflectedForm, PropertyWrapperStorage {
  var reflectedEncodable: any Encodable {
    PresentationState<Reflected<State>>(wrappedValue: wrappedValue.map(Reflected.init))
  }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    let reflected = try decoder.decode(PresentationState<Reflected<State>>.self, from: json)
    return Self(wrappedValue: reflected.wrappedValue?.value)
  }
}

extension BindingState: ReflectedForm, PropertyWrapperStorage {
  var reflectedEncodable: any Encodable {
    BindingState<Reflected<Value>>(wrappedValue: Reflected(wrappedValue))
  }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    Self(wrappedValue: try decoder.decode(Reflected<Value>.self, from: json).value)
  }
}

extension AlertState: ReflectedForm {
  var reflectedEncodable: any Encodable { map { $0.map(Reflected.init) } }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    try decoder.decode(AlertState<Reflected<Action>>.self, from: json).map { $0?.value }
  }
}

extension ConfirmationDialogState: ReflectedForm {
  var reflectedEncodable: any Encodable { map { $0.map(Reflected.init) } }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    try decoder.decode(ConfirmationDialogState<Reflected<Action>>.self, from: json)
      .map { $0?.value }
  }
}

extension ButtonState: ReflectedForm {
  var reflectedEncodable: any Encodable { map { $0.map(Reflected.init) } }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    try decoder.decode(ButtonState<Reflected<Action>>.self, from: json).map { $0?.value }
  }
}

extension TaskResult: ReflectedForm {
  var reflectedEncodable: any Encodable { map(Reflected.init) }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    try decoder.decode(TaskResult<Reflected<Success>>.self, from: json).map(\.value)
  }
}

extension BindingAction: ReflectedFirst {
  var reflectedEncodable: any Encodable { ReflectedBinding(action: self) }
  static func rebuilt(from json: JSONValue, decoder: JSONValueDecoder) throws -> Self {
    guard case .string(let name)? = json["set"]?["keyPath"], let value = json["set"]?["value"]
    else {
      throw ReflectionError.mismatch(
        type: String(reflecting: Self.self), path: "/",
        reason: #"a binding action is {"set": {"keyPath": …, "value": …}}"#)
    }
    let action = try Self.rebuilt(fieldNamed: name) { type in
      try ReflectionDecoding.build(type, from: value, at: [], decoder: decoder)
    }
    guard let action else {
      throw ReflectionError.mismatch(
        type: String(reflecting: Self.self), path: "/",
        reason: "\(String(reflecting: Root.self)) has no @BindingState field \"\(name)\"")
    }
    return action
  }
}

/// A binding action written as its conformance writes it, with its value by reflection.
private struct ReflectedBinding<Root>: Encodable, ReflectedBox {
  let action: BindingAction<Root>

  static var wrappedType: Any.Type { BindingAction<Root>.self }
  var wrappedValue: Any { action }

  func encode(to encoder: any Encoder) throws {
    guard let (name, value) = action.recordedField else { return try action.encode(to: encoder) }
    var container = encoder.container(keyedBy: JSONCodingKey.self)
    var set = container.nestedContainer(
      keyedBy: JSONCodingKey.self, forKey: JSONCodingKey(stringValue: "set"))
    try set.encode(name, forKey: JSONCodingKey(stringValue: "keyPath"))
    try set.encode(reflectedEncodable(value), forKey: JSONCodingKey(stringValue: "value"))
  }
}
