/// A reducer that applies binding actions to `@BindingState` fields.
///
/// Put it first in `body`, so that the reducers after it see the new value:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in
///     switch action {
///     case .binding(\.$displayName):
///       state.isSaveEnabled = !state.displayName.isEmpty
///       return .none
///     case .binding:
///       return .none
///     }
///   }
/// }
/// ```
///
/// Applying an action also teaches the module the name of the field its key path writes to,
/// which is what lets a recorder encode the action.
public struct BindingReducer<State, Action, ViewAction: BindableAction>: Reducer
where State == ViewAction.State {
  @usableFromInline
  let toViewAction: (Action) -> ViewAction?

  /// Creates a reducer that applies the feature's binding actions.
  @inlinable
  public init() where Action == ViewAction {
    self.init(internal: { $0 })
  }

  /// Creates a reducer that applies the binding actions found in a child action type, such as
  /// a feature's view actions.
  ///
  /// ```swift
  /// BindingReducer(action: { (/Action.view).extract(from: $0) })
  /// ```
  ///
  /// - Parameter toViewAction: Extracts the bindable action from an action, if it has one.
  @inlinable
  public init(action toViewAction: @escaping (_ action: Action) -> ViewAction?) {
    self.init(internal: toViewAction)
  }

  /// Creates a reducer that applies the binding actions in the case of a child action type,
  /// such as a feature's view actions: `BindingReducer(action: /Action.view)`.
  ///
  /// - Parameter toViewAction: A case path to the bindable action.
  @inlinable
  public init(action toViewAction: AnyCasePath<Action, ViewAction>) {
    self.init(internal: toViewAction.extract(from:))
  }

  @usableFromInline
  init(internal toViewAction: @escaping (Action) -> ViewAction?) {
    self.toViewAction = toViewAction
  }

  /// Applies the binding action in `action`, if there is one; never returns an effect.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let bindingAction = toViewAction(action)?.binding else { return .none }
    bindingAction.reduce(into: &state)
    return .none
  }
}
