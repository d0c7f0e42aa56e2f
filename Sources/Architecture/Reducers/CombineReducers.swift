/// Runs the reducers of its body top to bottom, as one reducer.
///
/// Useful to apply an operator such as `ifLet` to several reducers at once.
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline let reducers: Reducers
  @usableFromInline let site: ReducerSite

  /// Combines the reducers built by `build`.
  @inlinable
  public init(
    @ReducerBuilder<State, Action> _ build: () -> Reducers,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.reducers = build()
    self.site = ReducerSite(fileID: fileID, line: line)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    Blame.run(
      BlameFrame(kind: "CombineReducers", site: site, segment: .same, isLeaf: false), &state
    ) { reducers.reduce(into: &$0, action: action) }
  }
}
