import Architecture
import Foundation
import TraceJSON

/// What the app's thread hands to the recorder's thread: Swift values, not yet encoded.
///
/// States and actions cross threads here. They are values the app no longer mutates (its own
/// copy is separate by copy-on-write); a state holding a class instance that the app mutates
/// later would be recorded with the later contents.
@usableFromInline
enum RecorderEvent<State, Action>: @unchecked Sendable {
  /// The first event: the state before the first step, for the header.
  case begin(initialState: State, started: Date)
  case step(Step)
  case effect(EffectEvent)
  case end(time: Double)

  @usableFromInline
  struct Step {
    let index: Int
    let time: Double
    let origin: TraceStep.Origin
    let action: Action
    let state: State
    let dependencies: [DependencyTap.Value]
    /// The ids of the effects the step returned, whose `started` records follow the step's:
    /// consecutive, so a range, which needs no array on the app's thread.
    let effects: Range<Int>
    /// What the step's effect cancels and is cancellable by; `nil` when neither.
    let cancellation: EffectCancellation?
    /// The store's test clock's time, when it has one; see ``TraceStep/clock``.
    let clock: Double?

    @usableFromInline
    init(
      index: Int, time: Double, origin: TraceStep.Origin, action: Action, state: State,
      dependencies: [DependencyTap.Value], effects: Range<Int>, clock: Double? = nil,
      cancellation: EffectCancellation? = nil
    ) {
      self.clock = clock
      self.cancellation = cancellation
      self.index = index
      self.time = time
      self.origin = origin
      self.action = action
      self.state = state
      self.dependencies = dependencies
      self.effects = effects
    }

    /// The ids of the effects the step returned, as the trace lists them.
    var startedEffects: [Int] { Array(effects) }
  }
}

extension DependencyValue {
  init(_ value: DependencyTap.Value) {
    switch value {
    case .uuid(let uuid): self = .uuid(uuid.fastUppercaseString)
    case .date(let date): self = .date(date.timeIntervalSinceReferenceDate)
    case .random(let number): self = .random(number)
    case .stackElementID(let id): self = .stackElementID(id)
    }
  }
}
