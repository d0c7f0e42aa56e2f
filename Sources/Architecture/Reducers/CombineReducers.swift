/// Runs the reducers of its body top to bottom, as one reducer.
///
/// Useful to apply an operator such as `ifLet` to several reducers at once.
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline let reducers: Reducers

  /// Combines the reducers built by `build`.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
