/// An action that writes a new value into a `@BindingState` field of `Root`.
///
/// A feature's action embeds it in a `binding` case (see ``BindableAction``), and
/// ``BindingReducer`` applies it. Tests send one with ``set(_:_:)``, and reducers react to one
/// field with a key path pattern:
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .binding(\.$displayName):
///     state.saveCount += 1
///     return .none
///   case .binding:
///     return .none
///   }
/// }
///
/// await store.send(.binding(.set(\.$displayName, "Blob"))) {
///   $0.displayName = "Blob"
///   $0.saveCount = 1
/// }
/// ```
///
/// Binding actions are `Codable`, so a recorded session can be replayed: an action encodes as
/// `{"set":{"keyPath":"$displayName","value":"Blob"}}`. The name comes from the state: the first
/// time ``BindingReducer`` applies an action with a key path such as `\.$displayName`, it learns
/// which field the key path writes to. An action whose key path no reducer has applied yet
/// cannot be encoded. A decoded action holds a key path to the stored field
/// (`\State._displayName`), so compare and match actions with `==` and `~=`, which account for
/// that, rather than through ``keyPath``.
// unchecked: an immutable key path and storage; the value need not be Sendable, as in TCA
public struct BindingAction<Root>: @unchecked Sendable {
  /// The key path to the bindable field the action writes.
  ///
  /// `\State.$name` for an action made with ``set(_:_:)``; for a decoded action, the key path to
  /// the stored field, `\State._name`, which writes the same storage.
  public let keyPath: PartialKeyPath<Root>

  let storage: BindingActionStorage<Root>

  init<Value: Equatable>(
    keyPath: WritableKeyPath<Root, BindingState<Value>>,
    value: Value,
    decodedName: String? = nil
  ) {
    self.keyPath = keyPath
    self.storage = TypedBindingActionStorage(
      keyPath: keyPath, value: value, decodedName: decodedName
    )
  }

  /// Returns an action that writes `value` into the bindable field at `keyPath`.
  ///
  /// ```swift
  /// await store.send(.binding(.set(\.$displayName, "Blob"))) { $0.displayName = "Blob" }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: A key path to a `@BindingState` field's projected value, such as `\.$name`.
  ///   - value: The value to write.
  public static func set<Value: Equatable>(
    _ keyPath: WritableKeyPath<Root, BindingState<Value>>,
    _ value: Value
  ) -> Self {
    Self(keyPath: keyPath, value: value)
  }

  /// Whether `bindingAction` writes the field at `keyPath`: `case .binding(\.$name):`.
  ///
  /// ```swift
  /// switch action {
  /// case .binding(\.$displayName): print("the name changed")
  /// case .binding: print("another field changed")
  /// }
  /// ```
  ///
  /// Key paths are compared first, then the names of the fields they write, so that a decoded
  /// action (which holds `\State._displayName`) matches `\.$displayName` too.
  public static func ~= <Value>(
    keyPath: WritableKeyPath<Root, BindingState<Value>>,
    bindingAction: Self
  ) -> Bool {
    if keyPath == bindingAction.keyPath { return true }
    // Key paths built by code are equal exactly when they write the same field; only a decoded
    // action's key path (to the stored field) needs names.
    guard bindingAction.storage.decodedName != nil,
      bindingAction.storage.fieldType == BindingState<Value>.self,
      let actionName = bindingAction.fieldName(probing: bindingAction.storage.snapshot)
    else { return false }
    let patternName =
      BindableFields.knownName(of: keyPath)
      ?? bindingAction.storage.snapshot.flatMap { BindableFields.name(of: keyPath, in: $0) }
    return actionName == patternName
  }

  /// Returns the same change, made from a root that holds this action's root at `keyPath`.
  ///
  /// ```swift
  /// let parent: BindingAction<Parent.State> = childAction.pullback(\.child)
  /// ```
  public func pullback<NewRoot>(
    _ keyPath: WritableKeyPath<NewRoot, Root>
  ) -> BindingAction<NewRoot> {
    storage.pullback(keyPath)
  }

  /// The name of the field the key path writes to (`$name`, `child.$name`), if known: from
  /// decoding, from an earlier probe, or by probing `root`.
  func fieldName(probing root: Root?) -> String? {
    if let decodedName = storage.decodedName { return decodedName }
    if let known = BindableFields.knownName(of: keyPath) { return known }
    return root.flatMap(storage.probeName(in:))
  }

  /// Applies the action as ``BindingReducer`` does: names its key path from `root` first, so
  /// that the action can be encoded, and keeps `root` for matching if the action was decoded.
  func reduce(into root: inout Root) {
    if storage.decodedName != nil {
      storage.keep(snapshot: root)
    } else if BindableFields.knownName(of: keyPath) == nil {
      _ = storage.probeName(in: root)
    }
    storage.apply(to: &root)
  }
}

extension BindingAction: Equatable {
  /// Whether both actions write equal values into the same field.
  ///
  /// The same field is the same key path or, for a decoded action, the same field name.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.storage.hasValue(equalTo: rhs.storage) else { return false }
    if lhs.keyPath == rhs.keyPath { return true }
    guard lhs.storage.decodedName != nil || rhs.storage.decodedName != nil else { return false }
    let snapshot = lhs.storage.snapshot ?? rhs.storage.snapshot
    guard let name = lhs.fieldName(probing: snapshot) else { return false }
    return name == rhs.fieldName(probing: snapshot)
  }
}
