/// The machinery of a root store: state, the reducer, the action buffer and running effects.
///
/// `Store` and `TestStore` both run on one of these, so they reduce and run effects the same
/// way.
@MainActor
final class StoreCore<State, Action> {
  private(set) var state: State
  var dependencies: DependencyValues
  private let reducer: (inout State, Action) -> Effect<Action>

  private var buffer: [Buffered] = []
  /// `buffer.count`, kept apart: reading a generic array's count in unspecialized code costs a
  /// metadata lookup, and the buffer is empty for almost every action.
  private var bufferedCount = 0
  private var isSending = false
  private(set) var stepCount = 0

  private var tasks: [Int: RunningEffect] = [:]
  private var cancellables: [CancelID: Set<Int>] = [:]
  private var nextTaskKey = 0
  /// What `withTaskCancellation` runs inside this store's effects.
  private let taskCancellations = TaskCancellations()
  /// Whether effects run one at a time on the main actor, as a test store's do by default.
  var runsEffectsSerially = false

  private var observers: [Int: (State) -> Void] = [:]
  private var observerCount = 0
  private var nextObserverKey = 0

  private struct Buffered {
    let action: Action
    let origin: ActionOrigin
  }

  init(
    initialState: State,
    dependencies: DependencyValues,
    reducer: @escaping (inout State, Action) -> Effect<Action>
  ) {
    self.state = initialState
    self.dependencies = dependencies
    self.reducer = reducer
  }

  /// Reduces `action` and anything it sends synchronously; returns the effects started.
  @discardableResult
  func send(_ action: Action, origin: ActionOrigin) -> Task<Void, Never>? {
    guard !isSending else {
      enqueue(action, origin: origin)
      return nil
    }
    // Sent from an effect's task, which runs under the path of the reducer that returned it.
    if case .effect = origin {
      return NavigationPath.atRoot { self.sendAtRoot(action, origin: origin) }
    }
    return sendAtRoot(action, origin: origin)
  }

  private func sendAtRoot(_ action: Action, origin: ActionOrigin) -> Task<Void, Never>? {
    isSending = true
    var started: [Task<Void, Never>] = []
    let pushDependencies = !dependencies.isIdentical(to: DependencyValues._current)
    reduce(action, origin: origin, pushDependencies: pushDependencies, into: &started)
    return finishBatch(pushDependencies: pushDependencies, started: &started)
  }

  /// How many effects are running.
  var runningEffectCount: Int { tasks.count }

  /// Cancels every running effect.
  func cancelAllEffects() {
    for effect in tasks.values { effect.task.cancel() }
  }

  /// Registers `observer`, called after every batch of actions; returns a key to remove it.
  func addObserver(_ observer: @escaping (State) -> Void) -> Int {
    defer { nextObserverKey += 1 }
    observers[nextObserverKey] = observer
    observerCount = observers.count
    return nextObserverKey
  }

  func removeObserver(_ key: Int) {
    observers[key] = nil
    observerCount = observers.count
  }

  private func enqueue(_ action: Action, origin: ActionOrigin) {
    buffer.append(Buffered(action: action, origin: origin))
    bufferedCount += 1
  }

  /// Reduces everything buffered, in order.
  private func drain() -> Task<Void, Never>? {
    guard !isSending else { return nil }
    isSending = true
    var started: [Task<Void, Never>] = []
    // Skip the task-local push when the store runs with the dependencies already in force.
    let pushDependencies = !dependencies.isIdentical(to: DependencyValues._current)
    return finishBatch(pushDependencies: pushDependencies, started: &started)
  }

  /// Reduces what the batch buffered, then tells the observers.
  private func finishBatch(
    pushDependencies: Bool, started: inout [Task<Void, Never>]
  ) -> Task<Void, Never>? {
    if bufferedCount > 0 {
      var index = 0
      while index < bufferedCount {
        let buffered = buffer[index]
        index += 1
        reduce(
          buffered.action, origin: buffered.origin, pushDependencies: pushDependencies,
          into: &started
        )
      }
      buffer.removeAll(keepingCapacity: true)
      bufferedCount = 0
    }
    isSending = false
    if observerCount > 0 {
      for observer in observers.values { observer(state) }
    }
    return started.isEmpty ? nil : Self.combined(started)
  }

  private func reduce(
    _ action: Action,
    origin: ActionOrigin,
    pushDependencies: Bool,
    into started: inout [Task<Void, Never>]
  ) {
    let step = stepCount
    stepCount += 1
    let effect = ReduceContext.withValue(ReduceContext(step: step, origin: origin)) {
      pushDependencies
        ? DependencyValues.$_current.withValue(dependencies) { reducer(&state, action) }
        : reducer(&state, action)
    }
    if !effect.isNone { start(effect, step: step, ids: [], into: &started) }
  }

  private func start(
    _ effect: Effect<Action>,
    step: Int,
    ids: [CancelID],
    into started: inout [Task<Void, Never>]
  ) {
    var observers = RunObservers()
    start(effect, step: step, ids: ids, observers: &observers, into: &started)
  }

  /// Starts `effect`, numbering each run for `observers` (the observed effects it is beneath,
  /// innermost first) in pre-order, as ``Effect/runCount`` counts them.
  private func start(
    _ effect: Effect<Action>,
    step: Int,
    ids: [CancelID],
    observers: inout RunObservers,
    into started: inout [Task<Void, Never>]
  ) {
    switch effect.operation {
    case .none:
      break

    case .send(let box):
      enqueue(box.value, origin: .effect(parent: step))

    case .run(let priority, let operation):
      let send = Send<Action> { [weak self] action in
        self?.send(action, origin: .effect(parent: step))
      }
      // Most stores run without a recorder: checked here, before any call.
      if !observers.isEmpty, let ends = observers.numberNextRun() {
        started.append(
          spawn(ids: ids, priority: priority) {
            guard ends.gathersReads else {
              await operation(send)
              return ends.report(reads: [])
            }
            let reads = EffectDependencyReads()
            await EffectDependencyReads.$current.withValue(reads) { await operation(send) }
            ends.report(reads: reads.sorted)
          }
        )
      } else {
        started.append(spawn(ids: ids, priority: priority) { await operation(send) })
      }

    case .merge(let effects):
      for effect in effects {
        start(effect, step: step, ids: ids, observers: &observers, into: &started)
      }

    case .concatenate(let effects):
      // Leading synchronous effects belong to this batch; the rest run in order in a task.
      // Synchronous effects have no runs, so they take no numbers.
      var index = effects.startIndex
      while index < effects.endIndex, effects[index].isSynchronous {
        start(effects[index], step: step, ids: ids, observers: &observers, into: &started)
        index += 1
      }
      guard index < effects.endIndex else { break }
      let rest = SendableBox(Array(effects[index...]))
      // The rest's runs take their numbers now, in order, though they start later.
      let restObservers = observers
      if !observers.isEmpty { observers.skip(rest.value.reduce(0) { $0 + $1.runCount }) }
      started.append(
        spawn(ids: ids, priority: nil) { [weak self] in
          var observers = restObservers
          for effect in rest.value {
            guard !Task.isCancelled, let self else { return }
            await self.runToCompletion(effect, step: step, ids: ids, observers: &observers)
          }
        }
      )

    case .cancellable(let id, let cancelInFlight, let effect):
      if cancelInFlight { cancel(id) }
      start(effect, step: step, ids: ids + [id], observers: &observers, into: &started)

    case .cancel(let id):
      cancel(id)

    case .observed(let effect, let observation):
      observers.push(observation)
      start(effect, step: step, ids: ids, observers: &observers, into: &started)
      observers.pop()
    }
  }

  private func runToCompletion(
    _ effect: Effect<Action>, step: Int, ids: [CancelID], observers: inout RunObservers
  ) async {
    var started: [Task<Void, Never>] = []
    start(effect, step: step, ids: ids, observers: &observers, into: &started)
    _ = drain()
    guard let task = Self.combined(started) else { return }
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// One task that waits for all of `tasks` and cancels them when it is cancelled.
  private static func combined(_ tasks: [Task<Void, Never>]) -> Task<Void, Never>? {
    switch tasks.count {
    case 0:
      return nil
    case 1:
      return tasks[0]
    default:
      return Task {
        await withTaskCancellationHandler {
          for task in tasks { await task.value }
        } onCancel: {
          for task in tasks { task.cancel() }
        }
      }
    }
  }

  private func spawn(
    ids: [CancelID],
    priority: TaskPriority?,
    operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let key = nextTaskKey
    nextTaskKey += 1
    let task: Task<Void, Never>
    if runsEffectsSerially,
      #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    {
      task = Task(executorPreference: MainSerialExecutor.shared, priority: priority) {
        [weak self, taskCancellations] () async -> Void in
        await TaskCancellations.$current.withValue(taskCancellations) { await operation() }
        await self?.finished(key)
      }
    } else {
      task = Task(priority: priority) { [weak self, taskCancellations] in
        await TaskCancellations.$current.withValue(taskCancellations) { await operation() }
        self?.finished(key)
      }
    }
    tasks[key] = RunningEffect(task: task, ids: ids)
    for id in ids { cancellables[id, default: []].insert(key) }
    return task
  }

  private func finished(_ key: Int) {
    guard let effect = tasks.removeValue(forKey: key) else { return }
    for id in effect.ids {
      cancellables[id]?.remove(key)
      if cancellables[id]?.isEmpty == true { cancellables[id] = nil }
    }
  }

  private func cancel(_ id: CancelID) {
    taskCancellations.cancel(id)
    guard let keys = cancellables.removeValue(forKey: id) else { return }
    for key in keys { tasks[key]?.task.cancel() }
  }
}

/// The observed effects a run being started is beneath, innermost first.
///
/// The innermost is kept apart: one observer (a recorder, or a test store's bookkeeping) is the
/// usual case, and an array of them would cost an allocation per action.
private struct RunObservers: Sendable {
  private var innermost: RunObserver?
  private var outer: [RunObserver] = []

  var isEmpty: Bool { innermost == nil }

  /// Enters an observed effect.
  mutating func push(_ observation: EffectObservation) {
    if let innermost { outer.insert(innermost, at: 0) }
    innermost = RunObserver(observation)
  }

  /// Leaves the innermost observed effect.
  mutating func pop() {
    innermost = outer.isEmpty ? nil : outer.removeFirst()
  }

  /// Numbers the next run for every observer; `nil` when there are none.
  mutating func numberNextRun() -> RunEnds? {
    // Numbered in place: copying the observer out and back would retain and release it.
    guard let end = innermost?.numberNextRun() else { return nil }
    guard !outer.isEmpty else { return RunEnds(innermost: end, outer: []) }
    return RunEnds(innermost: end, outer: outer.indices.map { outer[$0].numberNextRun() })
  }

  /// Gives `runs` numbers away for every observer, to runs that will start later in a task.
  mutating func skip(_ runs: Int) {
    innermost?.next += runs
    for index in outer.indices { outer[index].next += runs }
  }
}

/// What to tell each observer of a run when it ends, innermost first.
private struct RunEnds: Sendable {
  let innermost: RunEnd
  let outer: [RunEnd]

  /// Whether any observer wants the run's `@Dependency` reads.
  var gathersReads: Bool {
    innermost.observer.gathersReads || outer.contains { $0.observer.gathersReads }
  }

  func report(reads: [String]) {
    innermost.report(reads: reads)
    for end in outer { end.report(reads: reads) }
  }
}

/// An observed effect being started: its observer and the number its next run takes.
private struct RunObserver: Sendable {
  let observation: EffectObservation
  var next: Int

  init(_ observation: EffectObservation) {
    self.observation = observation
    self.next = observation.first
  }

  /// Numbers the next run beneath the observed effect.
  mutating func numberNextRun() -> RunEnd {
    defer { next += 1 }
    return RunEnd(observer: observation.observer, effect: next, step: observation.step)
  }
}

/// What to tell an observer when one run ends.
private struct RunEnd: Sendable {
  let observer: any EffectObserver
  let effect: Int
  let step: Int

  /// Reports the end in the run's task, as cancelled if the task was.
  func report(reads: [String]) {
    observer.effectEnded(effect, step: step, cancelled: Task.isCancelled, reads: reads)
  }
}

extension Effect {
  /// Whether running this effect needs no task: only sends, cancellations and nothing.
  var isSynchronous: Bool {
    switch operation {
    case .none, .send, .cancel: true
    case .run: false
    case .merge(let effects), .concatenate(let effects): effects.allSatisfy(\.isSynchronous)
    case .cancellable(_, _, let effect), .observed(let effect, _): effect.isSynchronous
    }
  }
}

/// A running effect's task and the cancellation ids it runs under.
///
/// Outside `StoreCore`: nested in the generic class it was generic too, and every send that
/// started or cancelled an effect looked up its metadata and its dictionary's.
private struct RunningEffect {
  let task: Task<Void, Never>
  let ids: [CancelID]
}
