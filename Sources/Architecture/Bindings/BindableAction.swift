import Synchronization

/// An action type with a case for the changes a view makes to `@BindingState` fields.
///
/// ```swift
/// enum Action: BindableAction, Equatable, Codable {
///   case binding(BindingAction<State>)
///   case saveButtonTapped
/// }
/// ```
///
/// The `binding` case satisfies ``binding(_:)``; ``binding`` has a default implementation that
/// reads the case by reflection. Add ``BindingReducer`` to the feature's `body` to apply them.
public protocol BindableAction {
  /// The state that the binding actions write to.
  associatedtype State

  /// Embeds a binding action in this action type: the `binding` case.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action in this action, if it is the `binding` case.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// The binding action in this action, read by reflection from the `binding` case.
  public var binding: BindingAction<State>? {
    BindingCasePaths.casePath(for: Self.self).extract(from: self)
  }

  /// Returns the `binding` case for an action that writes `value` at `keyPath`.
  ///
  /// ```swift
  /// await store.send(.set(\.$displayName, "Blob")) { $0.displayName = "Blob" }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: A key path to a `@BindingState` field's projected value, such as `\.$name`.
  ///   - value: The value to write.
  public static func set<Value: Equatable>(
    _ keyPath: WritableKeyPath<State, BindingState<Value>>,
    _ value: Value
  ) -> Self {
    binding(.set(keyPath, value))
  }
}

/// One `/Action.binding` case path per action type, so that the case is learned by reflection
/// once rather than on every action.
private enum BindingCasePaths {
  private static let paths = Mutex<[ObjectIdentifier: any Sendable]>([:])

  static func casePath<Action: BindableAction>(
    for _: Action.Type
  ) -> AnyCasePath<Action, BindingAction<Action.State>> {
    let key = ObjectIdentifier(Action.self)
    if let known = paths.withLock({ $0[key] }) {
      return known as! AnyCasePath<Action, BindingAction<Action.State>>
    }
    // `binding(_:)` is an enum case's constructor in practice, which holds no state and is safe
    // to call from any thread; only its type, which names the generic metatype, keeps it from
    // being `@Sendable`.
    let embed = unsafeBitCast(
      Action.binding as (BindingAction<Action.State>) -> Action,
      to: (@Sendable (BindingAction<Action.State>) -> Action).self
    )
    let casePath = /embed
    paths.withLock { $0[key] = casePath }
    return casePath
  }
}
