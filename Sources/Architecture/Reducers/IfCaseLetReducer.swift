extension Reducer {
  /// Runs `case` on one case of enum state while the state is in that case; the case reducer
  /// runs first.
  ///
  /// ```swift
  /// struct Parent: Reducer {
  ///   enum State: Equatable {
  ///     case loggedIn(Authenticated.State)
  ///     case loggedOut(Unauthenticated.State)
  ///   }
  ///   enum Action {
  ///     case loggedIn(Authenticated.Action)
  ///     case loggedOut(Unauthenticated.Action)
  ///   }
  ///
  ///   var body: some ReducerOf<Self> {
  ///     Reduce { state, action in … }
  ///       .ifCaseLet(/State.loggedIn, action: /Action.loggedIn) {
  ///         Authenticated()
  ///       }
  ///       .ifCaseLet(/State.loggedOut, action: /Action.loggedOut) {
  ///         Unauthenticated()
  ///       }
  ///   }
  /// }
  /// ```
  ///
  /// When the parent moves the state to another case (or, for `Identifiable` case state, to the
  /// same case with another id), the case's running effects are cancelled. A case action that
  /// arrives while the state is in another case is reported, not run.
  ///
  /// - Parameters:
  ///   - toCaseState: A case path from the parent's state to the case's state.
  ///   - toCaseAction: A case path from the parent's action to the case's actions.
  ///   - case: The reducer to run on the case's state.
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: AnyCasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Case>
  where CaseState == Case.State, CaseAction == Case.Action {
    _IfCaseLetReducer(
      parent: self,
      child: `case`(),
      toChildState: toCaseState,
      toChildAction: toCaseAction,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

/// The reducer `ifCaseLet` returns.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: AnyCasePath<Parent.State, Child.State>
  @usableFromInline let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  @usableFromInline let fileID: StaticString
  @usableFromInline let filePath: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let column: UInt
  /// Reads the case of the parent's state, when it is an enum, so that the cancellation id
  /// tells the cases apart even when two of them hold the same type.
  @usableFromInline let metadata: EnumMetadata?

  @usableFromInline
  init(
    parent: Parent,
    child: Child,
    toChildState: AnyCasePath<Parent.State, Child.State>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
    self.metadata = EnumMetadata(Parent.State.self)
  }

  @inlinable
  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    let childEffects = reduceChild(into: &state, action: action)
    let before = caseID(in: state)
    let parentEffects = parent.reduce(into: &state, action: action)
    guard let before, before != caseID(in: state) else {
      return childEffects.merge(with: parentEffects)
    }
    return .merge(childEffects, parentEffects, .cancel(id: before))
  }

  /// Identifies the case the state is in, or `nil` when it is in another case.
  @usableFromInline
  func caseID(in state: Parent.State) -> CaseCancelID? {
    guard let childState = toChildState.extract(from: state) else { return nil }
    return caseID(in: state, childState: childState)
  }

  @usableFromInline
  func caseID(in state: Parent.State, childState: Child.State) -> CaseCancelID {
    CaseCancelID(
      stateType: Parent.State.self,
      tag: metadata?.tag(of: state),
      id: (childState as? any Identifiable).map { identity(of: $0) }
    )
  }

  @usableFromInline
  func reduceChild(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard var childState = toChildState.extract(from: state) else {
      reportWrongCase(action: action, state: state)
      return .none
    }
    let id = caseID(in: state, childState: childState)
    let effect = NavigationPath.withComponent(id) {
      Blame.run(
        BlameFrame(
          kind: "ifCaseLet", site: ReducerSite(fileID: fileID, line: line),
          segment: .caseOf(state), isLeaf: false),
        &childState
      ) { child.reduce(into: &$0, action: childAction) }
    }
    state = toChildState.embed(childState)
    guard !effect.isNone else { return .none }
    return effect.map(toChildAction.embed).cancellable(id: id)
  }

  @usableFromInline
  func reportWrongCase(action: Parent.Action, state: Parent.State) {
    reportIssue(
      """
      An "ifCaseLet" at "\(fileID):\(line)" received a child action when child state was set \
      to a different case. …

        Action:
      \(customDump(action, indent: 4))
        State:
      \(customDump(state, indent: 4))

      This is generally considered an application logic error, and can happen for a few \
      reasons:

      • A parent reducer set "\(dumpTypeName(Parent.State.self))" to a different case before \
      this reducer ran. This reducer must run before any other reducer sets child state to a \
      different case. This ensures that child reducers can handle their actions while their \
      state is still available.

      • An in-flight effect emitted this action when child state was unavailable. While it may \
      be perfectly reasonable to ignore this action, consider canceling the associated effect \
      before child state changes to another case, especially if it is a long-living effect.

      • This action was sent to the store while state was another case. Make sure that actions \
      for this reducer can only be sent from a view store when state is set to the appropriate \
      case. In SwiftUI applications, use "SwitchStore".
      """,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

/// Identifies the effects of the case an `ifCaseLet` runs: the parent state's type, the case's
/// tag and, for `Identifiable` case state, its id.
///
/// The id is only read and compared, never mutated, so sharing it across tasks is safe.
@usableFromInline
// unchecked: ids need only be Hashable, as in TCA, and AnyHashable is not Sendable; never mutated
struct CaseCancelID: Hashable, @unchecked Sendable, CustomDebugStringConvertible {
  @usableFromInline let stateType: Any.Type
  @usableFromInline let tag: UInt32?
  @usableFromInline let id: AnyHashable?

  @usableFromInline
  init(stateType: Any.Type, tag: UInt32?, id: AnyHashable?) {
    self.stateType = stateType
    self.tag = tag
    self.id = id
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.stateType == rhs.stateType && lhs.tag == rhs.tag && lhs.id == rhs.id
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(stateType))
    hasher.combine(tag)
    hasher.combine(id)
  }

  /// `State.settings(id: 3)`: the parent state's type, the case, and the case state's id.
  @usableFromInline
  var debugDescription: String {
    let name = tag.map { "." + StableNames.caseName(type: stateType, tag: $0) } ?? ""
    let identity = id.map { "(id: \(String(reflecting: $0.base)))" } ?? ""
    return "\(stateType)" + name + identity
  }
}

/// The id of an `Identifiable` value, type-erased.
private func identity(of value: some Identifiable) -> AnyHashable {
  AnyHashable(value.id)
}
