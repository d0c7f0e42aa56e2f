extension Reducer {
  /// Runs `destination` on a presented child feature while it is presented; the child runs
  /// first, then this reducer.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.$destination, action: /Action.destination) {
  ///       Destination()
  ///     }
  /// }
  /// ```
  ///
  /// - `.presented(action)` runs the child, then the parent. After an action of an alert or
  ///   confirmation dialog the presentation is cleared.
  /// - `.dismiss` runs the parent, then sets the state to `nil`.
  /// - When the presentation ends (set to `nil`, or to another case or id), the child's effects
  ///   are cancelled.
  /// - The child's effects can end it themselves with `@Dependency(\.dismiss)`, and read
  ///   `@Dependency(\.isPresented)`.
  ///
  /// A presentation action that arrives while nothing is presented is reported, not run.
  @inlinable
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      base: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      site: IfLetSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Presents an alert or a confirmation dialog, which has no reducer of its own: its button
  /// actions reach this reducer as `.presented(action)`, and then the alert is cleared.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$alert, action: /Action.alert)
  /// ```
  @inlinable
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    _PresentationReducer(
      base: self,
      destination: EmptyReducer(),
      toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      site: IfLetSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `ifLet` returns for a `PresentationState`.
public struct _PresentationReducer<Base: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let destination: Destination
  @usableFromInline let toPresentationState:
    WritableKeyPath<Base.State, PresentationState<Destination.State>>
  @usableFromInline let toPresentationAction:
    AnyCasePath<Base.Action, PresentationAction<Destination.Action>>
  @usableFromInline let site: IfLetSite

  @usableFromInline
  init(
    base: Base,
    destination: Destination,
    toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>,
    toPresentationAction: AnyCasePath<Base.Action, PresentationAction<Destination.Action>>,
    site: IfLetSite
  ) {
    self.base = base
    self.destination = destination
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.site = site
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let initialID = state[keyPath: toPresentationState].wrappedValue.map(PresentationID.init)
    var destinationEffects = Effect<Base.Action>.none
    let baseEffects: Effect<Base.Action>

    switch (initialID, toPresentationAction.extract(from: action)) {
    case (let id?, .presented(let destinationAction)?):
      destinationEffects = reduceDestination(into: &state, action: destinationAction, id: id)
      baseEffects = base.reduce(into: &state, action: action)
      if let presented = state[keyPath: toPresentationState].wrappedValue,
        PresentationID(presented) == id, isEphemeral(presented)
      {
        dismiss(&state)
      }
    case (_?, .dismiss?):
      baseEffects = base.reduce(into: &state, action: action)
      dismiss(&state)
    case (nil, _?):
      reportAbsentState(action: action)
      baseEffects = base.reduce(into: &state, action: action)
    case (_, nil):
      baseEffects = base.reduce(into: &state, action: action)
    }

    let finalID = state[keyPath: toPresentationState].wrappedValue.map(PresentationID.init)
    guard let initialID, initialID != finalID else {
      return destinationEffects.merge(with: baseEffects)
    }
    let ended = PresentationCancelID(keyPath: toPresentationState, presentation: initialID)
    return .merge(destinationEffects, baseEffects, .cancel(id: ended))
  }

  /// Ends the presentation: the operator's own write, which blame names.
  private func dismiss(_ state: inout Base.State) {
    _ = Blame.run(
      BlameFrame(kind: "ifLet", site: site.reducerSite, segment: .same, isLeaf: true), &state
    ) { (state: inout Base.State) -> Effect<Base.Action> in
      state[keyPath: toPresentationState].wrappedValue = nil
      return .none
    }
  }

  private func reduceDestination(
    into state: inout Base.State, action: Destination.Action, id: PresentationID
  ) -> Effect<Base.Action> {
    let cancelID = PresentationCancelID(keyPath: toPresentationState, presentation: id)
    let effect = NavigationPath.withComponent(cancelID) {
      DependencyValues.withPresentation {
        Blame.run(
          BlameFrame(
            kind: "ifLet", site: site.reducerSite, segment: .property(toPresentationState),
            isLeaf: false),
          &state[keyPath: toPresentationState].wrappedValue!
        ) { destination.reduce(into: &$0, action: action) }
      }
    }
    guard !effect.isNone else { return .none }
    let toPresentationAction = self.toPresentationAction
    return effect.presented(
      { toPresentationAction.embed(.presented($0)) },
      dismissal: { toPresentationAction.embed(.dismiss) }
    )
    .cancellable(id: cancelID)
  }

  private func reportAbsentState(action: Base.Action) {
    reportIssue(
      """
      An "ifLet" at "\(site.fileID):\(site.line)" received a presentation action when \
      destination state was absent. …

        Action:
          \(customDump(action))

      This is generally considered an application logic error, and can happen for a few \
      reasons:

      • A parent reducer set destination state to "nil" before this reducer ran. This reducer \
      must run before any other reducer sets destination state to "nil". This ensures that \
      destination reducers can handle their actions while their state is still present.

      • This action was sent to the store while destination state was "nil". Make sure that \
      actions for this reducer can only be sent from a view store when state is present, or \
      from effects that start from this reducer.
      """,
      fileID: site.fileID,
      filePath: site.filePath,
      line: site.line,
      column: site.column
    )
  }
}
