/// Told when each `.run` of an observed effect ends; see ``Effect/observed(by:)``.
///
/// Free of the effect's action type, so that the tasks running the effect need not know the
/// observer's generic types.
@usableFromInline
package protocol EffectObserver: AnyObject, Sendable {
  /// The run numbered `effect` returned, in its task; `cancelled` when that task was cancelled.
  func effectEnded(_ effect: Int, step: Int, cancelled: Bool)
  /// As ``effectEnded(_:step:cancelled:)``, with the `@Dependency` names the run read.
  func effectEnded(_ effect: Int, step: Int, cancelled: Bool, reads: [String])
  /// Whether the observer wants a run's reads; gathering them costs a lock per read.
  var gathersReads: Bool { get }
}

extension EffectObserver {
  package func effectEnded(_ effect: Int, step: Int, cancelled: Bool, reads: [String]) {
    effectEnded(effect, step: step, cancelled: cancelled)
  }

  package var gathersReads: Bool { false }
}

/// Who observes an effect's runs, and the numbers they take.
@usableFromInline
package struct EffectObservation: Sendable {
  /// The number of the effect's first run in pre-order; the others follow consecutively.
  package let first: Int
  /// Handed back to the observer with each run's end: for a recorder, the step that returned
  /// the effect.
  package let step: Int
  package let observer: any EffectObserver

  /// Observes runs numbered from `first`, reporting `step` with each to `observer`.
  @usableFromInline
  package init(first: Int, step: Int, observer: any EffectObserver) {
    self.first = first
    self.step = step
    self.observer = observer
  }
}

extension Effect {
  /// How many `.run` leaves the effect has: how many numbers ``observed(by:)`` uses.
  ///
  /// The store numbers them in pre-order: the order of the tree's leaves, children in order,
  /// whether they are merged or concatenated.
  @usableFromInline
  package var runCount: Int {
    switch operation {
    case .none, .send, .cancel: 0
    case .run: 1
    case .merge(let effects), .concatenate(let effects):
      effects.reduce(0) { $0 + $1.runCount }
    case .cancellable(_, _, let effect), .observed(let effect, _): effect.runCount
    }
  }

  /// This effect, with its runs numbered from `observation.first` in the order of
  /// ``runCount``, and `observation.observer` told when each run's operation returns.
  ///
  /// Costs one node, where rewrapping every run would rebuild the tree: the store does the
  /// numbering as it starts the runs. Runs that never start (a concatenation cancelled before
  /// reaching them) are never reported. Observed effects may nest; the innermost observer of a
  /// run hears of its end first. `.none` is returned as it is.
  @usableFromInline
  package func observed(by observation: EffectObservation) -> Self {
    // `.none` stays `.none`, so that `isNone` need not look inside observed effects.
    isNone ? self : Self(operation: .observed(self, observation))
  }
}
