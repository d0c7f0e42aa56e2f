extension BindingAction: Codable {
  private enum CodingKeys: String, CodingKey {
    case set
  }

  private enum SetCodingKeys: String, CodingKey {
    case keyPath, value
  }

  /// Encodes the action as `{"set":{"keyPath":"$name","value":…}}`.
  ///
  /// The key path is written as the Swift expression after `\.` (`$name`, `child.$name`).
  ///
  /// - Throws: `EncodingError.invalidValue` if the field's name is not known yet (no
  ///   ``BindingReducer`` has applied an action with this key path), or if the value is not
  ///   `Encodable`.
  public func encode(to encoder: any Encoder) throws {
    guard let name = fieldName(probing: storage.snapshot) else {
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: """
            Cannot encode a binding action on \(dumpTypeName(Root.self)): the name of the \
            field its key path writes to is not known yet. A key path such as \\.$name is \
            named when a BindingReducer first applies an action with it; encode binding \
            actions after a BindingReducer has reduced them, as a recording reducer does.
            """
        )
      )
    }
    guard let value = storage.value as? any Encodable else {
      throw EncodingError.invalidValue(
        storage.value,
        EncodingError.Context(
          codingPath: encoder.codingPath + [CodingKeys.set, SetCodingKeys.value],
          debugDescription: """
            Cannot encode the binding action on \(dumpTypeName(Root.self)).\(name): its value \
            of type \(dumpTypeName(type(of: storage.value))) is not Encodable.
            """
        )
      )
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    var set = container.nestedContainer(keyedBy: SetCodingKeys.self, forKey: .set)
    try set.encode(name, forKey: .keyPath)
    try set.encode(value, forKey: .value)
  }

  /// Decodes an action as ``encode(to:)`` writes it, finding the field by its name.
  ///
  /// - Throws: `DecodingError.dataCorrupted` if `Root` has no `@BindingState` field of that name,
  ///   or if the field's value is not `Decodable` and `Equatable`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let set = try container.nestedContainer(keyedBy: SetCodingKeys.self, forKey: .set)
    let name = try set.decode(String.self, forKey: .keyPath)
    guard let field = BindableFields.field(named: name, in: Root.self) else {
      let known = BindableFields.fields(of: Root.self).map(\.name)
      throw DecodingError.dataCorruptedError(
        forKey: .keyPath, in: set,
        debugDescription: """
          \(dumpTypeName(Root.self)) has no @BindingState field "\(name)"; its bindable \
          fields are \(known.isEmpty ? "none" : known.joined(separator: ", ")).
          """
      )
    }
    guard let fieldType = field.type as? any DecodableBindingState.Type else {
      throw DecodingError.dataCorruptedError(
        forKey: .value, in: set,
        debugDescription: """
          Cannot decode a binding action on \(dumpTypeName(Root.self)).\(name): its type, \
          \(dumpTypeName(field.type)), does not wrap a Decodable and Equatable value.
          """
      )
    }
    self = try fieldType.bindingAction(field, from: set, forKey: .value)
  }
}

/// A `BindingState` whose value can be decoded into a ``BindingAction``; lets a decoder that
/// found a field's type at run time decode its value with the static type.
protocol DecodableBindingState {
  static func bindingAction<Root, Key: CodingKey>(
    _ field: BindableFields.Field,
    from container: KeyedDecodingContainer<Key>,
    forKey key: Key
  ) throws -> BindingAction<Root>
}

extension BindingState: DecodableBindingState where Value: Decodable & Equatable {
  static func bindingAction<Root, Key: CodingKey>(
    _ field: BindableFields.Field,
    from container: KeyedDecodingContainer<Key>,
    forKey key: Key
  ) throws -> BindingAction<Root> {
    guard let keyPath = field.keyPath as? WritableKeyPath<Root, Self> else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container,
        debugDescription: "The field \(field.name) of \(dumpTypeName(Root.self)) is not writable."
      )
    }
    let value = try container.decode(Value.self, forKey: key)
    BindableFields.remember(field.name, for: keyPath)
    return BindingAction(keyPath: keyPath, value: value, decodedName: field.name)
  }
}
