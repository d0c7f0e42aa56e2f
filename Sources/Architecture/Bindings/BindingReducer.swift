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
  @usableFromInline let site: ReducerSite

  /// Creates a reducer that applies the feature's binding actions.
  @inlinable
  public init(fileID: StaticString = #fileID, line: UInt = #line) where Action == ViewAction {
    self.init(internal: { $0 }, site: ReducerSite(fileID: fileID, line: line))
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
  public init(
    action toViewAction: @escaping (_ action: Action) -> ViewAction?,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(internal: toViewAction, site: ReducerSite(fileID: fileID, line: line))
  }

  /// Creates a reducer that applies the binding actions in the case of a child action type,
  /// such as a feature's view actions: `BindingReducer(action: /Action.view)`.
  ///
  /// - Parameter toViewAction: A case path to the bindable action.
  @inlinable
  public init(
    action toViewAction: AnyCasePath<Action, ViewAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init(internal: toViewAction.extract(from:), site: ReducerSite(fileID: fileID, line: line))
  }

  @usableFromInline
  init(internal toViewAction: @escaping (Action) -> ViewAction?, site: ReducerSite) {
    self.toViewAction = toViewAction
    self.site = site
  }

  /// Applies the binding action in `action`, if there is one; never returns an effect.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let bindingAction = toViewAction(action)?.binding else { return .none }
    return Blame.run(
      BlameFrame(kind: "BindingReducer", site: site, segment: .same, isLeaf: true), &state
    ) { (state: inout State) -> Effect<Action> in
      bindingAction.reduce(into: &state)
      return .none
    }
  }
}
