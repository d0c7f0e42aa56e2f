/// Runs a feature: holds its state, reduces actions sent to it and runs the effects.
///
/// ```swift
/// let store = Store(initialState: CounterFeature.State()) {
///   CounterFeature()
/// }
/// store.send(.incrementButtonTapped)
/// print(store.state.count)  // 1
/// ```
///
/// Actions sent while the store is reducing, including those of `.send` effects, are buffered
/// and reduced in order. There is no Combine or SwiftUI on Linux: read ``state``, and follow
/// changes with ``observe(_:)`` or ``states``.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action> {
  private let backend: any StoreBackend<State, Action>

  /// Creates a store that runs `reducer` from `initialState`.
  ///
  /// The reducer and initial state are built with the dependencies `prepareDependencies`
  /// sets, and every action is reduced, and every effect started, with them.
  ///
  /// Inlinable, so that the reducer is called specialized for the app's types: called from
  /// this module, a generic reducer (such as a recording one) looked up its types' metadata on
  /// every action.
  @inlinable
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    self.init(
      initialState: initialState,
      makeReduce: {
        let reducer = reducer()
        return { reducer.reduce(into: &$0, action: $1) }
      },
      withDependencies: prepareDependencies
    )
  }

  /// Builds the initial state and the reducer (made by `makeReduce`) with the dependencies
  /// `prepareDependencies` sets.
  @usableFromInline
  convenience init(
    initialState: () -> State,
    makeReduce: () -> (inout State, Action) -> Effect<Action>,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)?
  ) {
    var dependencies = DependencyValues._current
    prepareDependencies?(&dependencies)
    let (state, reduce) = DependencyValues.$_current.withValue(dependencies) {
      (initialState(), makeReduce())
    }
    self.init(
      core: StoreCore(initialState: state, dependencies: dependencies, reducer: reduce)
    )
  }

  init(core: StoreCore<State, Action>) {
    self.backend = RootBackend(core: core)
  }

  private init(backend: any StoreBackend<State, Action>) {
    self.backend = backend
  }

  /// The current state.
  public var state: State { backend.state }

  /// Reads a value of the current state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    backend.state[keyPath: keyPath]
  }

  /// How many effects of the root store are running now; for tools that drive a store.
  package var runningEffectCount: Int { backend.runningEffectCount }

  /// Runs `body` with the current state; TCA's `withState`.
  public func withState<R>(_ body: (State) -> R) -> R {
    body(backend.state)
  }

  /// Sends an action to the store and returns a task for the effects it started.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    StoreTask(rawValue: backend.send(action, origin: .send))
  }

  /// Calls `observer` with the state now, and again after every batch of actions.
  ///
  /// Observation lasts until the returned token is cancelled or released.
  public func observe(_ observer: @escaping @MainActor (State) -> Void) -> StoreObservation {
    observer(backend.state)
    return backend.observe(observer)
  }

  /// A store for a child feature: its state at `toChildState`, its actions embedded by
  /// `toChildAction`.
  ///
  /// ```swift
  /// let counter = store.scope(state: \.counter, action: /AppFeature.Action.counter)
  /// counter.send(.incrementButtonTapped)
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: AnyCasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    Store<ChildState, ChildAction>(
      backend: ScopedBackend(
        parent: backend,
        toState: { $0[keyPath: toChildState] },
        fromAction: toChildAction.embed
      )
    )
  }
}

extension Store: Sendable {}

extension Store where State: Sendable {
  /// The state after every batch of actions, starting with the current state.
  public var states: AsyncStream<State> {
    let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .bufferingNewest(64))
    let box = SendableBox(continuation)
    let observation = observe { state in box.value.yield(state) }
    let token = SendableBox(observation)
    continuation.onTermination = { _ in
      Task { @MainActor in token.value.cancel() }
    }
    return stream
  }
}

/// A shorthand for the store of a reducer's feature.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// Keeps a ``Store/observe(_:)`` observation alive until cancelled or released.
@MainActor
public final class StoreObservation {
  private var onCancel: (() -> Void)?

  init(onCancel: @escaping () -> Void) {
    self.onCancel = onCancel
  }

  /// Stops the observation.
  public func cancel() {
    onCancel?()
    onCancel = nil
  }

  isolated deinit {
    onCancel?()
  }
}

@MainActor
protocol StoreBackend<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action
  var state: State { get }
  func send(_ action: Action, origin: ActionOrigin) -> Task<Void, Never>?
  func observe(_ observer: @escaping @MainActor (State) -> Void) -> StoreObservation
  var runningEffectCount: Int { get }
}

@MainActor
private final class RootBackend<State, Action>: StoreBackend {
  let core: StoreCore<State, Action>

  init(core: StoreCore<State, Action>) {
    self.core = core
  }

  var state: State { core.state }

  func send(_ action: Action, origin: ActionOrigin) -> Task<Void, Never>? {
    core.send(action, origin: origin)
  }

  var runningEffectCount: Int { core.runningEffectCount }

  func observe(_ observer: @escaping @MainActor (State) -> Void) -> StoreObservation {
    let key = core.addObserver(observer)
    return StoreObservation { [weak core] in core?.removeObserver(key) }
  }
}

@MainActor
private final class ScopedBackend<ParentState, ParentAction, State, Action>: StoreBackend {
  let parent: any StoreBackend<ParentState, ParentAction>
  let toState: (ParentState) -> State
  let fromAction: (Action) -> ParentAction

  init(
    parent: any StoreBackend<ParentState, ParentAction>,
    toState: @escaping (ParentState) -> State,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
  }

  var state: State { toState(parent.state) }

  func send(_ action: Action, origin: ActionOrigin) -> Task<Void, Never>? {
    parent.send(fromAction(action), origin: origin)
  }

  var runningEffectCount: Int { parent.runningEffectCount }

  func observe(_ observer: @escaping @MainActor (State) -> Void) -> StoreObservation {
    let toState = self.toState
    return parent.observe { observer(toState($0)) }
  }
}
