/// Runs a child reducer on a slice of the parent's state, for the child's actions.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.counter, action: /Action.counter) {
///     CounterFeature()
///   }
///   Reduce { state, action in … }
/// }
/// ```
///
/// The child's effects are mapped back into parent actions. Actions of other cases pass by.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Scopes `child` to the state at `toChildState` and the actions of `toChildAction`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction>
  {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    return child.reduce(into: &state[keyPath: toChildState], action: childAction)
      .map(toChildAction.embed)
  }
}
