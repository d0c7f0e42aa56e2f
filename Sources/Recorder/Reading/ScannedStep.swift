/// A step as a full scan reads it: the members `summary` and `log` use, without the action's
/// value, the dependency values or the types.
public struct ScannedStep: Sendable, Equatable {
  /// The step's index.
  public var index: Int
  /// Seconds since recording started.
  public var time: Double
  /// Where the action came from.
  public var origin: TraceStep.Origin
  /// The action's label; empty when the scan was not asked for labels.
  public var label: String
  /// The effects the step started.
  public var effects: [Int]
  /// Whether the action was recorded, so the step can be replayed.
  public var isReplayable: Bool
  /// Whether the step changed the value the scan watches; `true` when it watches none.
  public var changed: Bool
  /// The step as `log --json` lists it (``TraceStep/listingJSON``), when the scan was asked
  /// for listings; empty otherwise.
  public var json = ""

  /// The scanned form of a fully parsed step.
  public init(_ step: TraceStep, changed: Bool = true) {
    self.init(
      index: step.index, time: step.time, origin: step.origin, label: step.label,
      effects: step.effects, isReplayable: step.isReplayable, changed: changed)
  }

  /// A step with these members.
  public init(
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
