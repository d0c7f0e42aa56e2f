import Architecture
import Foundation
import Synchronization

/// Records a store's actions and state changes to a trace.
///
/// ```swift
/// let recorder = try TraceRecorder(path: "session.ndjson")
/// let store = Store(initialState: AppFeature.State()) {
///   AppFeature()
///     .recording(to: recorder)
/// }
/// …
/// try recorder.close()
/// ```
///
/// The app's thread only hands each action and the new state over; encoding, diffing and
/// writing happen on the recorder's own thread, in order. When that thread falls behind by
/// ``Options/queueCapacity`` steps, by ``Options/queueByteLimit`` bytes of states, or by 10 ms
/// of its own work, the app waits rather than losing one. The app does not wake that thread
/// for each step: for a quarter of a second after its last write it looks for new steps every
/// millisecond by itself, so a step usually reaches the sink within a millisecond and
/// ``flush()`` makes it immediate. Recording never throws into the app: a failure to write is
/// thrown by the next ``flush()`` or ``close()``, once; the steps it lost are declared in the
/// trace by a `gap` record when writing works again.
public final class TraceRecorder: Sendable {
  /// How a recorder writes.
  public struct Options: Sendable {
    /// A keyframe (the whole state) follows every this many steps; 0 for none.
    public var keyframeInterval: Int
    /// Values hidden before anything is encoded.
    public var redactions: [Redaction]
    /// Free-form facts written in the header.
    public var metadata: [String: String]
    /// How many steps may wait for the recorder's thread before the app waits.
    public var queueCapacity: Int
    /// About how many bytes of states, whatever their shape, may wait before the app waits.
    /// With states of 1 MB, the default lets 32 steps wait for the recorder's thread.
    public var queueByteLimit: Int

    /// How big a trace file may grow; `nil` for no limit.
    public var limit: SizeLimit?

    /// When each step reaches the kernel: in batches, or before the reducer returns.
    public var durability: Durability

    /// Whether a crash (a trap, a bad access, an abort) leaves a `crash` record naming the
    /// step being reduced, after every step handed over. Costs the app's thread an encoding
    /// of each action that differs from the previous one, before it is reduced.
    public var recordsCrashes: Bool

    /// Creates options; the defaults suit most apps.
    public init(
      keyframeInterval: Int = 100,
      redactions: [Redaction] = [],
      metadata: [String: String] = [:],
      queueCapacity: Int = 4_096,
      queueByteLimit: Int = 64 << 20,
      limit: SizeLimit? = nil,
      durability: Durability = .batched,
      recordsCrashes: Bool = true
    ) {
      self.keyframeInterval = keyframeInterval
      self.redactions = redactions
      self.metadata = metadata
      self.queueCapacity = queueCapacity
      self.queueByteLimit = queueByteLimit
      self.limit = limit
      self.durability = durability
      self.recordsCrashes = recordsCrashes
    }
  }

  /// How a recorder keeps a long session's files bounded.
  ///
  /// Each new file (a segment) starts with a header whose initial state is the state at that
  /// point and whose `firstStep` continues the numbering, so every segment loads on its own.
  /// Older segments are kept as `<path>.1` (the newest), `<path>.2`, and so on.
  public enum SizeLimit: Sendable, Equatable {
    /// Starts a new file when the current one reaches `maxBytes`; keeps `keep` older files.
    case rotate(maxBytes: Int, keep: Int)
    /// A flight recorder: starts a new file every `steps` steps and keeps only the previous
    /// one, so the last `steps` to `2 × steps` steps are always on disk.
    case lastSteps(Int)

    var keep: Int {
      switch self {
      case .rotate(_, let keep): max(0, keep)
      case .lastSteps: 1
      }
    }
  }

  let sink: TraceSink
  let options: Options
  private let state = Mutex(Pipelines())
  /// `state.isClosed`, readable without the lock: every recorded action checks it.
  private let closed = Atomic<Bool>(false)

  // unchecked: the pipeline, a Sendable `RecordingPipeline`, erased to AnyObject; kept in a Mutex
  private struct Pipelines: @unchecked Sendable {
    var pipeline: AnyObject?
    var isClosed = false
  }

  /// Creates a recorder that writes to `sink`.
  public init(sink: TraceSink, options: Options = Options()) {
    self.sink = sink
    self.options = options
    OpenRecorders.shared.add(self)
  }

  /// Creates a recorder that writes to a new file at `path`, readable by its owner only.
  ///
  /// With ``Options/limit``, older segments are kept next to it as `<path>.1`, `<path>.2`, ….
  public convenience init(path: String, options: Options = Options()) throws {
    self.init(sink: try .file(atPath: path, keep: options.limit?.keep ?? 0), options: options)
  }

  /// Waits until every step recorded so far is written, and syncs the file.
  ///
  /// Throws a write failure that happened since the last one thrown; afterwards, only new ones.
  public func flush() throws {
    if let pipeline = state.withLock({ $0.pipeline }) as? any PipelineControl {
      try pipeline.drain()
    }
    try sink.flush()
  }

  /// Writes the end record, then closes the trace. Steps after closing are not recorded.
  ///
  /// A recorder the app never closes is closed when it is freed (a local of `main`, as `main`
  /// returns) or when the process exits normally (`exit()`), within 2 seconds: what was handed
  /// over is written, then the end record. A process that is killed or traps does not get that
  /// far.
  public func close() throws {
    OpenRecorders.shared.remove(self)
    let pipeline = state.withLock { state -> AnyObject? in
      state.isClosed = true
      closed.store(true, ordering: .releasing)
      return state.pipeline
    }
    if let pipeline = pipeline as? any PipelineControl {
      try pipeline.finish()
    }
    try sink.close()
  }

  // NB: a recorder freed before the process exits (a local of `main`, freed as it returns) is
  // out of the exit hook's reach, which holds it weakly: it closes here, or its tail is lost.
  deinit {
    if !isClosed { try? close() }
  }

  /// Whether ``close()`` was called.
  @usableFromInline var isClosed: Bool { closed.load(ordering: .acquiring) }

  /// The pipeline for a reducer's types, created with the state before its first step.
  @usableFromInline
  func pipeline<State: Encodable, Action: Encodable>(
    reducer: String,
    reducerProperties: @autoclosure () -> [String] = [],
    initialState: @autoclosure () -> State
  ) -> RecordingPipeline<State, Action>? {
    state.withLock { state in
      guard !state.isClosed else { return nil }
      if let pipeline = state.pipeline {
        return pipeline as? RecordingPipeline<State, Action>
      }
      let pipeline = RecordingPipeline<State, Action>(
        sink: sink, options: options, reducer: reducer,
        reducerProperties: reducerProperties(), initialState: initialState()
      )
      state.pipeline = pipeline
      return pipeline
    }
  }
}

protocol PipelineControl: AnyObject, Sendable {
  func drain() throws
  func finish() throws
}

/// One recording's moving parts: the step counter, the clock, and the writer thread.
@usableFromInline
// unchecked: `crashSlot` and `crashAction` are set in init, before the pipeline is shared
final class RecordingPipeline<State: Encodable, Action: Encodable>: PipelineControl,
  EffectObserver, @unchecked Sendable
{
  private let writer: WriterThread<RecorderEvent<State, Action>>
  /// Listens to the dependencies each reduce reads; reused, since reduces do not overlap.
  @usableFromInline let tap = DependencyTap()
  private let start = SessionClock()
  private let counters = Mutex(RecordingCounters())
  private let nextEffect = Atomic<Int>(0)
  /// Where a crash finds this recording; `nil` when ``TraceRecorder/Options/recordsCrashes``
  /// is off.
  private var crashSlot: CrashSlot?
  private var crashAction: CrashActionEncoder<Action>?
  /// Set after a crash, once the writer has written what it was handed: it writes no more.
  private let sealed = AtomicFlag()
  @usableFromInline let writesEveryStep: Bool
  /// Old states the writer hands back, freed on the app's thread.
  @usableFromInline let retired = RetiredStates<State>()

  init(
    sink: TraceSink, options: TraceRecorder.Options, reducer: String,
    reducerProperties: [String] = [], initialState: State
  ) {
    // The header, with the whole initial state, is encoded on the writer's thread like
    // everything else: for a large state that is the most expensive line of the trace.
    var session: RecordingSession<State, Action>?
    let handle = WriterHandle<RecorderEvent<State, Action>>()
    let sealed = self.sealed
    let retired = self.retired
    writesEveryStep = options.durability == .everyStep
    writer = WriterThread(
      capacity: options.queueCapacity, name: "tca-replay recorder",
      byteBudget: options.queueByteLimit, latencyBudget: Self.latencyBudget
    ) { events in
      guard !sealed.isSet else { return }
      // The queue learns how big a state is, to hold no more than its byte budget.
      defer { if let session { handle.writer?.adjust(bytesPerEvent: session.stateSize) } }
      var events = events
      if session == nil, case .begin(let initialState, let started) = events.first {
        events = UnsafeMutableBufferPointer(rebasing: events.dropFirst())
        session = try RecordingSession(
          sink: sink, options: options, reducer: reducer,
          reducerProperties: reducerProperties, initialState: initialState,
          started: started, retired: retired
        )
      }
      try session?.process(events)
    }
    handle.writer = writer
    writer.enqueue(.begin(initialState: initialState, started: Date()))
    // The header is in the trace before the first step is recorded: the app waits for it
    // once, so a kill from now on leaves a trace that loads.
    writer.waitForQueue()
    if options.recordsCrashes {
      let crashAction = CrashActionEncoder<Action>(redactions: options.redactions)
      self.crashAction = crashAction
      // NB: through the existential, the crash slot's closure captures no `Action.Type`.
      let kept: any KeptActionEncoding = crashAction
      crashSlot = CrashHandler.shared.makeSlot(
        path: sink.path, start: start.startTime,
        control: CrashSlot.Control(
          drainAndSeal: { [weak control = self as any PipelineControl] in
            try? control?.drain()
            sealed.set()
          },
          write: { bytes in try? sink.write(bytes) },
          encodeAction: { kept.encodeKept() }
        )
      )
    }
  }

  deinit {
    if let crashSlot { CrashHandler.shared.release(crashSlot) }
  }

  /// Before the reducer reduces step `index`: its action and origin, kept now, are what a
  /// crash record names if the reducer never returns.
  @usableFromInline
  func willReduce(_ action: Action, step index: Int, origin: TraceStep.Origin) {
    guard let crashSlot, let crashAction else { return }
    crashAction.keep(action, origin: origin)
    crashSlot.beginReducing(step: index)
  }

  /// The reducer returned.
  @usableFromInline
  func didReduce() {
    crashSlot?.endReducing()
  }

  /// Waits until the writer has written every step handed over, for
  /// ``TraceRecorder/Durability/everyStep``.
  @usableFromInline
  func waitUntilWritten() {
    try? writer.drain()
  }

  /// How long the writer may take to get through its queue, in seconds: with as long again
  /// for the batch it is working on, and a write every 5 ms within a batch, a step handed
  /// over reaches the file within about 25 ms of writer time (documented as 50 ms).
  static var latencyBudget: Double { 0.01 }

  /// Seconds since the recording started.
  @usableFromInline var now: Double { start.elapsed }

  /// Numbers the next step and works out its origin in trace terms; the step is remembered as
  /// the cause of the actions its effects send later.
  @usableFromInline
  func beginStep(context: ReduceContext?) -> (index: Int, origin: TraceStep.Origin) {
    counters.withLock { counters in
      let index = counters.nextStep
      counters.nextStep += 1
      if let context { counters.traceSteps.record(storeStep: context.step, traceStep: index) }
      switch context?.origin {
      case .send, nil:
        return (index, .send)
      case .effect(let parent):
        return (index, .effect(cause: counters.traceSteps.traceStep(ofStoreStep: parent)))
      }
    }
  }

  /// Reserves `count` consecutive effect ids, unique within the trace; returns the first.
  @usableFromInline
  func reserveEffectIDs(_ count: Int) -> Int {
    nextEffect.add(count, ordering: .relaxed).oldValue
  }

  /// Records the end of the effect numbered `effect`, which `step` returned.
  @usableFromInline
  func effectEnded(_ effect: Int, step: Int, cancelled: Bool) {
    effectEnded(effect, step: step, cancelled: cancelled, reads: [])
  }

  /// Records the end of an effect with the `@Dependency` names its run read.
  @usableFromInline
  func effectEnded(_ effect: Int, step: Int, cancelled: Bool, reads: [String]) {
    let event: EffectEvent.Kind = cancelled ? .cancelled : .finished
    enqueue(
      .effect(EffectEvent(event: event, effect: effect, step: step, time: now, reads: reads)))
  }

  /// A recorder writes what each run read, for `gen-test`.
  @usableFromInline
  var gathersReads: Bool { true }

  @usableFromInline
  func enqueue(_ event: consuming RecorderEvent<State, Action>) {
    writer.enqueue(event)
  }

  func drain() throws {
    try writer.drain()
  }

  func finish() throws {
    // A crash after closing writes nothing: the trace already has its end.
    if let crashSlot { CrashHandler.shared.deactivate(crashSlot) }
    writer.enqueue(.end(time: now))
    try writer.finish()
  }
}

/// The writer thread, for the code it runs to reach it once it exists.
// unchecked: `writer` is set before the first event is enqueued, so before any read
private final class WriterHandle<Event>: @unchecked Sendable {
  weak var writer: WriterThread<Event>?
}

/// A pipeline's numbering, outside the generic pipeline so that locking it needs no generic
/// type metadata.
private struct RecordingCounters {
  var nextStep = 0
  var traceSteps = StoreStepMap()
}

/// Which trace step each store step the recorder saw became, to name the cause of the actions
/// effects send later.
///
/// Kept as runs of consecutive store steps recorded as consecutive trace steps. A recorder
/// around the root reducer sees every store step, so one run covers a whole session; a table
/// with an entry per step grew for as long as the app ran.
struct StoreStepMap {
  private struct Run {
    var first: Int
    var last: Int
    /// Trace step minus store step, for every step of the run.
    var offset: Int
  }

  private var runs: [Run] = []

  /// Remembers that store step `storeStep` became trace step `traceStep`.
  mutating func record(storeStep: Int, traceStep: Int) {
    let offset = traceStep - storeStep
    if let last = runs.last, last.offset == offset, storeStep == last.last + 1 {
      runs[runs.count - 1].last = storeStep
    } else {
      runs.append(Run(first: storeStep, last: storeStep, offset: offset))
    }
  }

  /// The trace step store step `step` became, if the recorder saw it; the latest, if it saw it
  /// more than once.
  func traceStep(ofStoreStep step: Int) -> Int? {
    // From the end: effects mostly answer recent steps, and later records win.
    for run in runs.reversed() where run.first <= step && step <= run.last {
      return step + run.offset
    }
    return nil
  }

  /// How many runs it keeps: 1 for a recorder that sees every step of one store.
  var runCount: Int { runs.count }
}

/// When a recording started, to time its steps.
///
/// Reads the clock directly: `ContinuousClock`'s instants and durations use 128-bit
/// arithmetic, on the app's thread.
struct SessionClock: Sendable {
  private let start: timespec

  init() { start = Self.read() }

  /// The clock's reading at `init`.
  var startTime: timespec { start }

  /// Seconds since `init`, to the microsecond: finer than a trace needs, and a time rounded so
  /// is written in at most 15 digits, without the shortest-digits search a full double needs.
  var elapsed: Double {
    let now = Self.read()
    let nanoseconds =
      Int64(now.tv_sec - start.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec - start.tv_nsec)
    return Double(nanoseconds / 1_000) / 1e6
  }

  private static func read() -> timespec {
    var time = timespec()
    // What `ContinuousClock` reads: on Linux it keeps counting while the machine sleeps.
    #if os(Linux)
      clock_gettime(CLOCK_BOOTTIME, &time)
    #else
      clock_gettime(CLOCK_MONOTONIC_RAW, &time)
    #endif
    return time
  }
}

/// The recorders not closed yet, which the process closes as it exits.
final class OpenRecorders: Sendable {
  static let shared: OpenRecorders = {
    atexit { OpenRecorders.shared.closeAll(within: .seconds(2)) }
    return OpenRecorders()
  }()

  private struct Entry: Sendable {
    weak let recorder: TraceRecorder?
  }

  private let recorders = Mutex<[ObjectIdentifier: Entry]>([:])

  func add(_ recorder: TraceRecorder) {
    recorders.withLock { $0[ObjectIdentifier(recorder)] = Entry(recorder: recorder) }
  }

  func remove(_ recorder: TraceRecorder) {
    _ = recorders.withLock { $0.removeValue(forKey: ObjectIdentifier(recorder)) }
  }

  /// Closes every open recorder, giving up after `limit`: a writer stuck on a full pipe must
  /// not keep the process from exiting.
  func closeAll(within limit: Duration) {
    let open = recorders.withLock { entries in
      defer { entries.removeAll() }
      return entries.values.compactMap(\.recorder)
    }
    guard !open.isEmpty else { return }
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      for recorder in open { try? recorder.close() }
      done.signal()
    }
    let seconds = Double(limit.components.seconds)
    _ = done.wait(timeout: .now() + seconds)
  }
}
