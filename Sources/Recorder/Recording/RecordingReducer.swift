import Architecture
import Foundation

extension Reducer where State: Encodable, Action: Encodable {
  /// Records every action this reducer reduces, and the state change it caused, to `recorder`.
  ///
  /// ```swift
  /// Store(initialState: AppFeature.State()) {
  ///   AppFeature()
  ///     .recording(to: recorder)
  /// }
  /// ```
  ///
  /// Wrap the root reducer: the trace's steps are the actions it sees. Each step also records
  /// where the action came from, the values read from `uuid`, `date` and
  /// `withRandomNumberGenerator` while reducing, the machine's `locale`, `timeZone`, `calendar`
  /// and `temporaryDirectory` when read, the names of the app's clients read, and when the
  /// effects it returned started and ended.
  public func recording(to recorder: TraceRecorder) -> _RecordingReducer<Self> {
    _RecordingReducer(base: self, recorder: recorder, cache: PipelineCache())
  }
}

extension Reducer {
  /// Records every action this reducer reduces, and the state change it caused, to `recorder`,
  /// for a `State` or an `Action` that is not `Encodable`.
  ///
  /// The app's types need no conformance: values are written by reflection, in the form
  /// synthesized `Codable` would give them, and any part of them that has its own `Encodable`
  /// conformance is written with it. A value reflection cannot rebuild on replay (a class, a
  /// closure) is written as `{"$opaque": "TypeName"}`.
  ///
  /// ```swift
  /// Store(initialState: AppFeature.State()) {
  ///   AppFeature()
  ///     .recording(to: recorder)
  /// }
  /// ```
  public func recording(to recorder: TraceRecorder) -> some Reducer<State, Action> {
    ReflectingRecordingReducer(base: self, recorder: recorder, cache: PipelineCache())
  }
}

/// The reducer `recording(to:)` returns.
///
/// Named rather than `some Reducer`: a caller in another module that held the opaque type looked
/// up its conformance at run time on every action.
public struct _RecordingReducer<Base: Reducer>: Reducer
where Base.State: Encodable, Base.Action: Encodable {
  @usableFromInline let base: Base
  @usableFromInline let recorder: TraceRecorder
  @usableFromInline let cache: PipelineCache<Base.State, Base.Action>

  @usableFromInline
  init(base: Base, recorder: TraceRecorder, cache: PipelineCache<Base.State, Base.Action>) {
    self.base = base
    self.recorder = recorder
    self.cache = cache
  }

  // Inlinable, so that it is specialized for the app's types where the app calls it: unspecialized,
  // looking up the generic metadata of the effect and the event cost more than the hand-over.
  /// Runs the wrapped reducer and hands the step, with what it read and changed, to the recorder.
  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let pipeline: RecordingPipeline<Base.State, Base.Action>
    if let cached = cache.pipeline, !recorder.isClosed {
      pipeline = cached
    } else if let created: RecordingPipeline<Base.State, Base.Action> = recorder.pipeline(
      reducer: String(describing: Base.self),
      reducerProperties: ReducerProperties.names(of: base), initialState: state
    ) {
      cache.pipeline = created
      pipeline = created
    } else {
      return base.reduce(into: &state, action: action)
    }
    return pipeline.recordStep(
      state: &state, action: action, recordedState: { $0 }, recordedAction: { $0 },
      reduce: base.reduce
    )
  }
}

/// The reducer `recording(to:)` returns for a state or an action that is not `Encodable`: it
/// hands the recorder each value in a ``Reflected``, which encodes it by reflection.
struct ReflectingRecordingReducer<Base: Reducer>: Reducer {
  let base: Base
  let recorder: TraceRecorder
  let cache: PipelineCache<Reflected<Base.State>, Reflected<Base.Action>>

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let pipeline: RecordingPipeline<Reflected<Base.State>, Reflected<Base.Action>>
    if let cached = cache.pipeline, !recorder.isClosed {
      pipeline = cached
    } else if let created: RecordingPipeline<Reflected<Base.State>, Reflected<Base.Action>> =
      recorder.pipeline(
        reducer: String(describing: Base.self),
        reducerProperties: ReducerProperties.names(of: base), initialState: Reflected(state))
    {
      cache.pipeline = created
      pipeline = created
    } else {
      return base.reduce(into: &state, action: action)
    }
    return pipeline.recordStep(
      state: &state, action: action, recordedState: Reflected.init, recordedAction: Reflected.init,
      reduce: base.reduce
    )
  }
}

extension RecordingPipeline {
  /// Numbers the step, reduces it through `reduce`, and hands the action, the new state, what
  /// was read and the effects started to the recorder's queue.
  ///
  /// Inlinable with its closures, so the typed path pays nothing for them once specialized.
  @inlinable
  func recordStep<AppState, AppAction>(
    state: inout AppState, action: AppAction,
    recordedState: (AppState) -> State, recordedAction: (AppAction) -> Action,
    reduce: (inout AppState, AppAction) -> Effect<AppAction>
  ) -> Effect<AppAction> {
    let context = ReduceContext.current
    // Numbered before reducing, so that a crash record can name the step that never ended.
    let (index, origin) = beginStep(context: context)
    willReduce(recordedAction(action), step: index, origin: origin)
    let (values, effect) = tap.listen {
      reduce(&state, action)
    }
    let clock = RecordingClockTime.now()
    didReduce()
    let hasEffects = !effect.isNone
    let time = now
    // The effects' `started` records travel with the step, in one hand-over to the writer.
    // Their numbers are taken now, for the step record; the store numbers the runs the same
    // way as it starts them and reports their ends, so the effect is wrapped in one node
    // instead of rebuilt with every run wrapped.
    var startedEffects = 0..<0
    var recordedEffect = effect
    var cancellation: EffectCancellation?
    if hasEffects {
      // The ids are kept as values here and made text on the recorder's thread.
      let facts = effect.cancellation
      if !facts.isEmpty { cancellation = facts }
      let runs = effect.runCount
      if runs > 0 {
        let first = reserveEffectIDs(runs)
        startedEffects = first..<(first + runs)
        recordedEffect = effect.observed(
          by: EffectObservation(first: first, step: index, observer: self)
        )
      }
    }
    enqueue(
      .step(
        .init(
          index: index,
          time: time,
          origin: origin,
          action: recordedAction(action),
          state: recordedState(state),
          dependencies: values,
          effects: startedEffects,
          clock: clock,
          cancellation: cancellation
        )
      )
    )
    if writesEveryStep { waitUntilWritten() }
    retired.freeOne()
    return recordedEffect
  }
}

/// The pipeline a recording reducer found on its first step, kept to skip the recorder's lock.
///
/// Typed, so that reading it needs no dynamic cast (which looked up the pipeline's generic type
/// metadata on every step).
@usableFromInline
// unchecked: `pipeline` is set once, on the first step, by the thread that then reads it
final class PipelineCache<State: Encodable, Action: Encodable>: @unchecked Sendable {
  // Set once, on the first step; not checked at run time on every read.
  @usableFromInline @exclusivity(unchecked) var pipeline: RecordingPipeline<State, Action>?

  @usableFromInline init() {}
}
