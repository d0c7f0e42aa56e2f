extension Reducer {
  /// Runs `wrapped` on optional child state while it is present; the child runs first.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.detail, action: /Action.detail) {
  ///       DetailFeature()
  ///     }
  /// }
  /// ```
  ///
  /// When the parent sets the child state to `nil`, the child's running effects are
  /// cancelled. A child action that arrives while the state is `nil` is reported, not run.
  @inlinable
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped>
  where Wrapped.State == WrappedState, Wrapped.Action == WrappedAction {
    _IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: toWrappedAction,
      site: IfLetSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// Where an `ifLet` or `forEach` was written, for the issues it reports.
public struct IfLetSite: Sendable {
  @usableFromInline let fileID: StaticString
  @usableFromInline let filePath: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let column: UInt

  @usableFromInline
  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// The file and line, for blame.
  @usableFromInline
  var reducerSite: ReducerSite { ReducerSite(fileID: fileID, line: line) }
}

/// The reducer `ifLet` returns.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  @usableFromInline let site: IfLetSite

  @usableFromInline
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>,
    site: IfLetSite
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.site = site
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    let childEffects = reduceChild(into: &state, action: action)
    let wasPresent = state[keyPath: toChildState] != nil
    let parentEffects = parent.reduce(into: &state, action: action)
    let isPresent = state[keyPath: toChildState] != nil
    let cancellation: Effect<Parent.Action> =
      wasPresent && !isPresent ? .cancel(id: childCancelID) : .none
    return .merge(childEffects, parentEffects, cancellation)
  }

  private var childCancelID: ChildCancelID {
    ChildCancelID(keyPath: toChildState)
  }

  private func reduceChild(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard state[keyPath: toChildState] != nil else {
      reportIssue(
        """
        An "ifLet" at "\(site.fileID):\(site.line)" received a child action when child state \
        was "nil". …

          Action:
            \(customDump(action))

        This is generally considered an application logic error, and can happen for a few \
        reasons:

        • A parent reducer set child state to "nil" before this reducer ran. This reducer must \
        run before any other reducer sets child state to "nil". This ensures that child \
        reducers can handle their actions while their state is still available.

        • An in-flight effect emitted this action when child state was "nil". While it may be \
        perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state becomes "nil", especially if it is a long-living effect.

        • This action was sent to the store while state was "nil". Make sure that actions for \
        this reducer can only be sent from a view store when state is non-"nil".
        """,
        fileID: site.fileID,
        filePath: site.filePath,
        line: site.line,
        column: site.column
      )
      return .none
    }
    let id = childCancelID
    let effect = NavigationPath.withComponent(id) {
      Blame.run(
        BlameFrame(
          kind: "ifLet", site: site.reducerSite, segment: .property(toChildState), isLeaf: false),
        &state[keyPath: toChildState]!
      ) { child.reduce(into: &$0, action: childAction) }
    }
    return effect.map(toChildAction.embed).cancellable(id: id)
  }
}

/// Identifies the effects of a child feature presented at a key path.
///
/// Key paths without captured values are immutable, so sharing one across tasks is safe.
// unchecked: a key path is immutable, but AnyKeyPath is not marked Sendable
struct ChildCancelID: Hashable, @unchecked Sendable, CustomDebugStringConvertible {
  let keyPath: AnyKeyPath

  /// `\State.detail`.
  var debugDescription: String { StableNames.name(of: keyPath) }
}
