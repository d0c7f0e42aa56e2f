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
  /// Where the closure was written; line 0 for another reducer erased.
  @usableFromInline let site: ReducerSite

  /// Creates a reducer from a closure that evolves state and returns an effect.
  @inlinable
  public init(
    _ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.reduce = reduce
    self.site = ReducerSite(fileID: fileID, line: line)
  }

  /// Erases the type of `reducer`.
  @inlinable
  public init<R: Reducer<State, Action>>(
    _ reducer: R, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    self.reduce = reducer.reduce(into:action:)
    // Its own operators name themselves.
    self.site = ReducerSite(fileID: fileID, line: 0)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    // An erased reducer's own operators name themselves.
    guard site.line != 0 else { return reduce(&state, action) }
    return Blame.run(
      BlameFrame(kind: "Reduce", site: site, segment: .same, isLeaf: true), &state
    ) { reduce(&$0, action) }
  }
}
