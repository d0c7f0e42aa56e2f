extension BindingAction {
  /// The written field's name and value, for a recorder that writes values of any type; `nil`
  /// while the field's name is not known yet.
  package var recordedField: (name: String, value: Any)? {
    guard let name = fieldName(probing: storage.snapshot) else { return nil }
    return (name, storage.value)
  }

  /// The action that writes to the bindable field `name` of `Root`, its value built by `build`
  /// from the field's value type; `nil` when `Root` has no such field.
  package static func rebuilt(
    fieldNamed name: String, build: (Any.Type) throws -> Any
  ) throws -> Self? {
    guard let field = BindableFields.field(named: name, in: Root.self),
      let type = field.type as? any ReflectableBindingState.Type
    else { return nil }
    return try type.bindingAction(field, build: build)
  }
}

/// A `BindingState` whose binding action can be rebuilt from a value of its type built at run
/// time.
private protocol ReflectableBindingState {
  static func bindingAction<Root>(
    _ field: BindableFields.Field, build: (Any.Type) throws -> Any
  ) throws -> BindingAction<Root>?
}

extension BindingState: ReflectableBindingState where Value: Equatable {
  fileprivate static func bindingAction<Root>(
    _ field: BindableFields.Field, build: (Any.Type) throws -> Any
  ) throws -> BindingAction<Root>? {
    guard let keyPath = field.keyPath as? WritableKeyPath<Root, Self>,
      let value = try build(Value.self) as? Value
    else { return nil }
    BindableFields.remember(field.name, for: keyPath)
    return BindingAction(keyPath: keyPath, value: value, decodedName: field.name)
  }
}
