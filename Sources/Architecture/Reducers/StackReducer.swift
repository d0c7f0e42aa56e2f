extension Reducer {
  /// Runs `destination` on the element of a navigation stack that an action names; the element
  /// runs first, then this reducer.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.path, action: /Action.path) {
  ///       Path()
  ///     }
  /// }
  /// ```
  ///
  /// - `.element(id:action:)` runs the element, then the parent.
  /// - `.popFrom(id:)` runs the parent, then pops that element and those above it.
  /// - `.push(id:state:)` runs the parent, then pushes the state with that id.
  /// - When an element leaves the stack, its effects are cancelled.
  /// - An element's effects can pop it with `@Dependency(\.dismiss)`.
  ///
  /// An action for an id that is not in the stack is reported, not run.
  @inlinable
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: AnyCasePath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _StackReducer(
      base: self,
      destination: destination(),
      toStackState: toStackState,
      toStackAction: toStackAction,
      site: IfLetSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `forEach` returns for a `StackState`.
public struct _StackReducer<Base: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let destination: Destination
  @usableFromInline let toStackState: WritableKeyPath<Base.State, StackState<Destination.State>>
  @usableFromInline let toStackAction:
    AnyCasePath<Base.Action, StackAction<Destination.State, Destination.Action>>
  @usableFromInline let site: IfLetSite

  @usableFromInline
  init(
    base: Base,
    destination: Destination,
    toStackState: WritableKeyPath<Base.State, StackState<Destination.State>>,
    toStackAction: AnyCasePath<Base.Action, StackAction<Destination.State, Destination.Action>>,
    site: IfLetSite
  ) {
    self.base = base
    self.destination = destination
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.site = site
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let idsBefore = state[keyPath: toStackState].ids
    var destinationEffects = Effect<Base.Action>.none
    let baseEffects: Effect<Base.Action>

    switch toStackAction.extract(from: action) {
    case let .element(id, elementAction)?:
      if state[keyPath: toStackState][id: id] != nil {
        destinationEffects = reduceElement(into: &state, id: id, action: elementAction)
      } else {
        report(
          "received an action for a missing element", action: action,
          reasons: Self.missingElementReasons)
      }
      baseEffects = base.reduce(into: &state, action: action)
    case let .popFrom(id)?:
      baseEffects = base.reduce(into: &state, action: action)
      if !ownWrite(&state, { $0[keyPath: toStackState].pop(from: id) }) {
        report(
          "received a \"popFrom\" action for a missing element", action: action,
          reasons: Self.missingElementReasons)
      }
    case let .push(id, element)?:
      baseEffects = base.reduce(into: &state, action: action)
      if state[keyPath: toStackState].ids.contains(id) {
        report(
          "received a \"push\" action for an element it already contains", action: action,
          reasons: """
            This action should only be sent with an id that is not in the stack yet. Take one \
            from "@Dependency(\\.stackElementID)".
            """)
      } else {
        DependencyValues._current.stackElementID.skip(past: id)
        ownWrite(&state) { $0[keyPath: toStackState][id: id] = element }
      }
    case nil:
      baseEffects = base.reduce(into: &state, action: action)
    }

    let idsAfter = state[keyPath: toStackState].ids
    guard idsBefore != idsAfter else { return destinationEffects.merge(with: baseEffects) }
    let cancellations = idsBefore.filter { !idsAfter.contains($0) }.map {
      Effect<Base.Action>.cancel(id: StackCancelID(keyPath: toStackState, id: $0))
    }
    return .merge([destinationEffects, baseEffects] + cancellations)
  }

  /// Runs the operator's own write (a push, a pop), which blame names.
  private func ownWrite<R>(_ state: inout Base.State, _ write: (inout Base.State) -> R) -> R {
    var result: R?
    _ = Blame.run(
      BlameFrame(kind: "forEach", site: site.reducerSite, segment: .same, isLeaf: true), &state
    ) { (state: inout Base.State) -> Effect<Base.Action> in
      result = write(&state)
      return .none
    }
    return result!
  }

  private func reduceElement(
    into state: inout Base.State, id: StackElementID, action: Destination.Action
  ) -> Effect<Base.Action> {
    let cancelID = StackCancelID(keyPath: toStackState, id: id)
    let index =
      Blame.listener == nil ? 0 : state[keyPath: toStackState].ids.firstIndex(of: id) ?? 0
    let effect = NavigationPath.withComponent(cancelID) {
      DependencyValues.withPresentation {
        Blame.run(
          BlameFrame(
            kind: "forEach", site: site.reducerSite,
            segment: .element(
              toStackState, index: index, inStack: true),
            isLeaf: false),
          &state[keyPath: toStackState][id: id]!
        ) { destination.reduce(into: &$0, action: action) }
      }
    }
    guard !effect.isNone else { return .none }
    let toStackAction = self.toStackAction
    return effect.presented(
      { toStackAction.embed(.element(id: id, action: $0)) },
      dismissal: { toStackAction.embed(.popFrom(id: id)) }
    )
    .cancellable(id: cancelID)
  }

  private static var missingElementReasons: String {
    """
    This is generally considered an application logic error, and can happen for a few reasons:

    • A parent reducer removed an element with this ID before this reducer ran. This reducer \
    must run before any other reducer removes an element, which ensures that element reducers \
    can handle their actions while their state is still available.

    • An in-flight effect emitted this action when state contained no element at this ID. \
    While it may be perfectly reasonable to ignore this action, consider canceling the \
    associated effect before an element is removed, especially if it is a long-living effect.

    • This action was sent to the store while its state contained no element at this ID. To \
    fix this make sure that actions for this reducer can only be sent from a view store when \
    its state contains an element at this id.
    """
  }

  private func report(_ problem: String, action: Base.Action, reasons: String) {
    reportIssue(
      """
      A "forEach" at "\(site.fileID):\(site.line)" \(problem). …

        Action:
          \(customDump(action))

      \(reasons)
      """,
      fileID: site.fileID,
      filePath: site.filePath,
      line: site.line,
      column: site.column
    )
  }
}

/// Identifies the effects of one element of a navigation stack.
///
/// Key paths without captured values are immutable, so sharing one across tasks is safe.
// unchecked: a key path is immutable, but AnyKeyPath is not marked Sendable
struct StackCancelID: Hashable, @unchecked Sendable, CustomDebugStringConvertible {
  let keyPath: AnyKeyPath
  let id: StackElementID

  /// `\State.path[id: 3]`.
  var debugDescription: String { "\(StableNames.name(of: keyPath))[id: \(id)]" }
}
