extension Reducer {
  /// Runs `reducer` after this reducer whenever this reducer changes the value `toValue` reads.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   BindingReducer()
  ///     .onChange(of: \.userSettings.isHapticFeedbackEnabled) { oldValue, newValue in
  ///       Reduce { state, action in
  ///         .run { send in
  ///           // Persist the new value…
  ///         }
  ///       }
  ///     }
  /// }
  /// ```
  ///
  /// Only changes made by this reducer are seen: the value is read before and after it runs,
  /// and the inner reducer runs, with the same action, when the two differ. Its effects are
  /// merged with this reducer's. Each action pays for one comparison, so prefer values that are
  /// cheap to compare.
  ///
  /// - Parameters:
  ///   - toValue: Reads the value to watch from the state; a key path such as `\.name` works.
  ///   - reducer: Builds the reducer to run when the value changed, from the old and new value.
  @inlinable
  public func onChange<V: Equatable, R: Reducer>(
    of toValue: @escaping (State) -> V,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> R,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _OnChangeReducer<Self, V, R> where R.State == State, R.Action == Action {
    _OnChangeReducer(
      base: self, toValue: toValue, reducer: reducer,
      site: ReducerSite(fileID: fileID, line: line))
  }

  /// Runs `reducer` after this reducer whenever this reducer changes the value at `keyPath`.
  ///
  /// The same as the closure form, for a key path held in a variable:
  ///
  /// ```swift
  /// let field: KeyPath<State, String> = \.name
  /// Reduce { state, action in … }
  ///   .onChange(of: field) { oldValue, newValue in
  ///     Reduce { state, _ in
  ///       state.history.append(oldValue)
  ///       return .none
  ///     }
  ///   }
  /// ```
  @inlinable
  public func onChange<V: Equatable, R: Reducer>(
    of keyPath: KeyPath<State, V>,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> R,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _OnChangeReducer<Self, V, R> where R.State == State, R.Action == Action {
    _OnChangeReducer(
      base: self, toValue: { $0[keyPath: keyPath] }, reducer: reducer,
      site: ReducerSite(fileID: fileID, line: line))
  }
}

/// The reducer `onChange(of:_:)` returns.
public struct _OnChangeReducer<Base: Reducer, Value: Equatable, Body: Reducer>: Reducer
where Base.State == Body.State, Base.Action == Body.Action {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let reducer: (Value, Value) -> Body
  @usableFromInline let site: ReducerSite

  @usableFromInline
  init(
    base: Base,
    toValue: @escaping (Base.State) -> Value,
    reducer: @escaping (Value, Value) -> Body,
    site: ReducerSite
  ) {
    self.base = base
    self.toValue = toValue
    self.reducer = reducer
    self.site = site
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let baseEffects = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return baseEffects }
    let changed = Blame.run(
      BlameFrame(kind: "onChange", site: site, segment: .same, isLeaf: false), &state
    ) { reducer(oldValue, newValue).reduce(into: &$0, action: action) }
    return baseEffects.merge(with: changed)
  }
}
