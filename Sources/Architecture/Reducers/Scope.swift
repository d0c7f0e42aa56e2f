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
/// The slice is a property (a key path), or a case of an enum state (a case path), as a
/// `Destination` reducer scopes each of its features:
///
/// ```swift
/// struct Destination: Reducer {
///   enum State: Equatable { case addItem(ItemFormFeature.State), alert(AlertState<Action.Alert>) }
///   enum Action { case addItem(ItemFormFeature.Action), alert(Alert) }
///   var body: some ReducerOf<Self> {
///     Scope(state: /State.addItem, action: /Action.addItem) { ItemFormFeature() }
///   }
/// }
/// ```
///
/// The child's effects are mapped back into parent actions. Actions of other cases pass by. A
/// child action that arrives while an enum state is in another case is reported, not run.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>, IfLetSite)
  }

  @usableFromInline let toChildState: StatePath
  @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child
  @usableFromInline let site: ReducerSite

  /// Scopes `child` to the state at `toChildState` and the actions of `toChildAction`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = toChildAction
    self.child = child()
    self.site = ReducerSite(fileID: fileID, line: line)
  }

  /// Scopes `child` to one case of an enum state, and the actions of `toChildAction`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    let site = IfLetSite(fileID: fileID, filePath: filePath, line: line, column: column)
    self.toChildState = .casePath(toChildState, site)
    self.toChildAction = toChildAction
    self.child = child()
    self.site = ReducerSite(fileID: fileID, line: line)
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction>
  {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    switch toChildState {
    case .keyPath(let keyPath):
      return Blame.run(
        BlameFrame(
          kind: "Scope", site: site,
          segment: .property(keyPath), isLeaf: false),
        &state[keyPath: keyPath]
      ) { child.reduce(into: &$0, action: childAction) }
      .map(toChildAction.embed)
    case .casePath(let casePath, let site):
      guard var childState = casePath.extract(from: state) else {
        reportWrongCase(action: action, state: state, site: site)
        return .none
      }
      let effect = Blame.run(
        BlameFrame(
          kind: "Scope", site: self.site,
          segment: .caseOf(state), isLeaf: false),
        &childState
      ) { child.reduce(into: &$0, action: childAction) }
      state = casePath.embed(childState)
      return effect.map(toChildAction.embed)
    }
  }

  @usableFromInline
  func reportWrongCase(action: ParentAction, state: ParentState, site: IfLetSite) {
    reportIssue(
      """
      A "Scope" at "\(site.fileID):\(site.line)" received a child action when child state was \
      set to a different case. …

        Action:
          \(customDump(action))
        State:
          \(customDump(state))

      This is generally considered an application logic error, and can happen for a few \
      reasons:

      • A parent reducer set state to a different case before the scoped reducer ran. Child \
      reducers must run before any parent reducer sets child state to a different case. This \
      ensures that child reducers can handle their actions while their state is still available.

      • An in-flight effect emitted this action when state was set to a different case. While \
      it may be perfectly reasonable to ignore this action, consider canceling the associated \
      effect when moving from one case to another.

      • This action was sent to the store while state was another case. Make sure that actions \
      for this reducer can only be sent from a view store or test store when state is set to \
      the appropriate case.
      """,
      fileID: site.fileID,
      filePath: site.filePath,
      line: site.line,
      column: site.column
    )
  }
}
