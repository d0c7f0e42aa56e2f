@_spi(Reflection) import Swift

/// Builds a struct from the values of its stored properties, without calling any initializer.
///
/// `gen-test` writes a feature's state this way, because a state often declares an `init` of its
/// own (which hides the memberwise one, and may read a dependency), while a recorded state is
/// exactly its stored properties:
///
/// ```swift
/// let initialState = assemble(SyncUpsList.State.self, [
///   "destination": nil,
///   "syncUps": [SyncUp(id: UUID(0), title: "Morning sync")],
/// ])
/// ```
///
/// A property wrapper's storage (`@BindingState var name`, `@PresentationState var
/// destination`) takes the wrapped value under the property's name.
///
/// - Precondition: `Value` is a struct, `properties` names each of its stored properties once,
///   and each value is of the property's type (or `nil` for an optional or presented one).
public func assemble<Value>(_ type: Value.Type, _ properties: KeyValuePairs<String, Any?>)
  -> Value
{
  var given: [String: Any?] = [:]
  for (name, value) in properties { given[name] = .some(value) }
  var fields: [(name: String, offset: Int, type: Any.Type)] = []
  let isStruct = _forEachField(of: Value.self) { name, offset, type, _ in
    fields.append((String(cString: name), offset, type))
    return true
  }
  precondition(isStruct, "assemble: \(Value.self) is not a struct with reflection metadata")
  let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
  defer { storage.deallocate() }
  let raw = UnsafeMutableRawPointer(storage)
  for field in fields {
    let key = field.name.hasPrefix("_") && given[field.name] == nil
      ? String(field.name.dropFirst()) : field.name
    guard let value = given.removeValue(forKey: key) else {
      preconditionFailure("assemble: no value for \(Value.self).\(key)")
    }
    func write<Field>(_: Field.Type) {
      guard let converted = convert(value, to: Field.self) else {
        preconditionFailure(
          "assemble: \(Value.self).\(key) is a \(Field.self), not \(String(describing: value))")
      }
      (raw + field.offset).initializeMemory(as: Field.self, repeating: converted, count: 1)
    }
    _openExistential(field.type, do: write)
  }
  precondition(
    given.isEmpty, "assemble: \(Value.self) has no stored property \(given.keys.sorted())")
  return storage.move()
}

/// `value` as a `Field`: itself, `nil` for an optional, or the wrapped value of a wrapper.
private func convert<Field>(_ value: Any?, to _: Field.Type) -> Field? {
  if let value, let field = value as? Field { return field }
  if let wrapper = Field.self as? any WrappingStoredProperty.Type {
    return wrapper.init(wrapping: value) as? Field
  }
  if value == nil, Field.self is any ExpressibleByNilLiteral.Type {
    return (Field.self as! any ExpressibleByNilLiteral.Type).init(nilLiteral: ()) as? Field
  }
  return nil
}

/// A property wrapper whose storage ``assemble(_:_:)`` builds from a wrapped value.
private protocol WrappingStoredProperty {
  init?(wrapping value: Any?)
}

extension BindingState: WrappingStoredProperty {
  fileprivate init?(wrapping value: Any?) {
    guard let wrapped = convert(value, to: Value.self) else { return nil }
    self.init(wrappedValue: wrapped)
  }
}

extension PresentationState: WrappingStoredProperty {
  fileprivate init?(wrapping value: Any?) {
    guard let value else {
      self.init(wrappedValue: nil)
      return
    }
    guard let state = value as? State else { return nil }
    self.init(wrappedValue: state)
  }
}
