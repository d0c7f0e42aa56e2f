/// A reducer made from a closure, or a type-erased reducer.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Reduce { state, action in
///     switch action {
///     case .incrementButtonTapped:
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let reduce: (inout State, Action) -> Effect<Action>

  /// Creates a reducer from a closure that evolves state and returns an effect.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Erases the type of `reducer`.
  @inlinable
  public init<R: Reducer<State, Action>>(_ reducer: R) {
    self.reduce = reducer.reduce(into:action:)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}
