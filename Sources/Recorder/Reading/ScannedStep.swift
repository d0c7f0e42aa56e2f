import TraceJSON

/// A step as a full scan reads it: the members `summary` and `log` use, without the action's
/// value, the dependency values or the types.
package struct ScannedStep: Sendable, Equatable {
  /// The step's index.
  package var index: Int
  /// Seconds since recording started.
  package var time: Double
  /// Where the action came from.
  package var origin: TraceStep.Origin
  /// The action's label; empty when the scan was not asked for labels.
  package var label: String
  /// The effects the step started.
  package var effects: [Int]
  /// Whether the action was recorded, so the step can be replayed.
  package var isReplayable: Bool
  /// Whether the step changed the value the scan watches; `true` when it watches none.
  package var changed: Bool
  /// The watched value before and after the step, when it changed it.
  package var change: Change?

  /// A watched value before and after a step; `nil` where the state has nothing.
  package struct Change: Sendable, Equatable {
    package var before: JSONValue?
    package var after: JSONValue?
    /// The hidden values under the watched one that the step changed in place, relative to it.
    package var redacted: [JSONPointer] = []
  }
  /// The parts of the step's `log --json` listing that are not its numbers (see
  /// `StepListing`), when the scan was asked for listings: shared with the line's shape.
  var listingMiddle: [UInt8] = []
  var listingTail: [UInt8] = []
  var clock: Double?

  /// Whether ``writeJSON(to:)`` has what it needs: the scan was asked for listings.
  package var hasListing: Bool { !listingTail.isEmpty }

  /// Appends the step as `log --json` lists it, the same bytes as ``TraceStep/listingJSON``;
  /// only when ``hasListing``.
  package func writeJSON(to out: inout [UInt8]) {
    listingMiddle.withUnsafeBufferPointer { middle in
      listingTail.withUnsafeBufferPointer { tail in
        StepListing.write(
          index: index, time: time, clock: clock, origin: origin, middle: middle,
          effects: effects, tail: tail, to: &out)
      }
    }
  }

  /// The step as `log --json` lists it; only when ``hasListing``.
  package var json: String {
    var out: [UInt8] = []
    writeJSON(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The scanned form of a fully parsed step.
  package init(_ step: TraceStep, changed: Bool = true) {
    self.init(
      index: step.index, time: step.time, origin: step.origin, label: step.label,
      effects: step.effects, isReplayable: step.isReplayable, changed: changed)
  }

  /// The scanned form of a fully parsed step, with its listing.
  init(listing step: TraceStep) {
    self.init(step)
    listingMiddle = StepListing.middle(action: step.action, label: step.label)
    listingTail = StepListing.tail(
      cancels: step.cancels, cancellable: step.cancellable, isReplayable: step.isReplayable)
    clock = step.clock
  }

  /// A step with these members.
  package init(
    index: Int, time: Double, origin: TraceStep.Origin, label: String, effects: [Int],
    isReplayable: Bool, changed: Bool = true
  ) {
    self.index = index
    self.time = time
    self.origin = origin
    self.label = label
    self.effects = effects
    self.isReplayable = isReplayable
    self.changed = changed
  }
}
