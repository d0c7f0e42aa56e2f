import Architecture
import Foundation
import TraceJSON

/// What the app's thread hands to the recorder's thread: Swift values, not yet encoded.
///
/// States and actions cross threads here. They are values the app no longer mutates (its own
/// copy is separate by copy-on-write); a state holding a class instance that the app mutates
/// later would be recorded with the later contents.
@usableFromInline
// unchecked: the app's states and actions, handed to the writer and never touched after
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
    case .locale(let locale): self = .locale(locale.identifier)
    case .timeZone(let timeZone): self = .timeZone(timeZone.identifier)
    case .temporaryDirectory(let url): self = .temporaryDirectory(url.absoluteString)
    case .calendar(let calendar): self = .calendar(RecordedCalendar(calendar))
    case .client(let key, let property, _): self = .client(key: key, property: property)
    }
  }
}

extension RecordedCalendar {
  /// What `calendar` is made of.
  init(_ calendar: Calendar) {
    identifier = "\(calendar.identifier)"
    timeZone = calendar.timeZone.identifier
    locale = calendar.locale?.identifier
    firstWeekday = calendar.firstWeekday
    minimumDaysInFirstWeek = calendar.minimumDaysInFirstWeek
  }

  /// The identifiers Foundation has on every platform, by the names `identifier` records.
  static let identifiers: [String: Calendar.Identifier] = Dictionary(
    uniqueKeysWithValues: [
      Calendar.Identifier.gregorian, .buddhist, .chinese, .coptic, .ethiopicAmeteMihret,
      .ethiopicAmeteAlem, .hebrew, .iso8601, .indian, .islamic, .islamicCivil, .japanese,
      .persian, .republicOfChina, .islamicTabular, .islamicUmmAlQura,
    ].map { ("\($0)", $0) })

  /// The calendar recorded, as far as Foundation can make it: `nil` for an unknown identifier.
  var calendar: Calendar? {
    guard let identifier = Self.identifiers[identifier] else { return nil }
    var calendar = Calendar(identifier: identifier)
    if let timeZone = TimeZone(identifier: timeZone) { calendar.timeZone = timeZone }
    calendar.locale = locale.map(Locale.init(identifier:))
    calendar.firstWeekday = firstWeekday
    calendar.minimumDaysInFirstWeek = minimumDaysInFirstWeek
    return calendar
  }
}
