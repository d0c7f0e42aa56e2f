import Architecture
import Foundation

/// Hands a reducer, during replay, the dependency values it read when the step was recorded.
///
/// A replay loads each step's recorded `deps` before reducing it. `uuid`, `date` and
/// `withRandomNumberGenerator` then answer from those values, each kind in its recorded order,
/// so an unchanged reducer computes exactly what it computed then. A reducer that now reads more
/// values than were recorded gets deterministic stand-ins, and the step notes the extra reads.
// unchecked: one replay thread at a time uses a feed: the one reducing the step it serves
final class DependencyFeed: @unchecked Sendable {
  private var uuids: [UUID] = []
  private var dates: [Date] = []
  private var randoms: [UInt64] = []
  private var stackElementIDs: [Int] = []
  private var nextStackElementID = 0
  /// The generation of the last stack element id handed out, recorded or not.
  private var lastStackElementID = -1
  private var nextUUID = 0
  private var nextDate = 0
  private var nextRandom = 0
  /// The machine's settings the step read (locale, time zone, calendar, temporary directory),
  /// to be set over the replay's dependencies while it reduces.
  private(set) var settings: [DependencyValue] = []
  /// Reads beyond what the step recorded, for the report.
  private(set) var extraReads = 0
  private var fallbackRandom = SplitMix64(seed: 0x7463_612d_7265_706c)

  /// Loads the values of the next step to replay. Called on the thread that replays it.
  func load(_ values: [DependencyValue]) {
    uuids.removeAll(keepingCapacity: true)
    dates.removeAll(keepingCapacity: true)
    randoms.removeAll(keepingCapacity: true)
    stackElementIDs.removeAll(keepingCapacity: true)
    nextStackElementID = 0
    nextUUID = 0
    nextDate = 0
    nextRandom = 0
    extraReads = 0
    settings.removeAll(keepingCapacity: true)
    for value in values {
      switch value {
      case let .uuid(text): uuids.append(UUID(uuidString: text) ?? Self.standInUUID(0))
      case let .date(seconds): dates.append(Date(timeIntervalSinceReferenceDate: seconds))
      case let .random(number): randoms.append(number)
      case let .stackElementID(id): stackElementIDs.append(id)
      case .locale, .timeZone, .calendar, .temporaryDirectory: settings.append(value)
      // The trace cannot hold a client's value: the replay's pins give it.
      case .client: break
      }
    }
  }

  /// Runs `body` with the settings the step recorded set over the current dependencies, so
  /// that the step reads the recording machine's locale, time zone, calendar and temporary
  /// directory rather than this one's.
  func withRecordedSettings<R>(_ body: () throws -> R) rethrows -> R {
    guard !settings.isEmpty else { return try body() }
    var values = DependencyValues._current
    Self.apply(settings, to: &values)
    return try DependencyValues.$_current.withValue(values, operation: body)
  }

  /// Sets the recorded `settings` in `values`; one that Foundation cannot rebuild is left.
  static func apply(_ settings: [DependencyValue], to values: inout DependencyValues) {
    for setting in settings {
      switch setting {
      case let .locale(identifier): values.locale = Locale(identifier: identifier)
      case let .timeZone(identifier):
        if let timeZone = TimeZone(identifier: identifier) { values.timeZone = timeZone }
      case let .calendar(recorded):
        if let calendar = recorded.calendar { values.calendar = calendar }
      case let .temporaryDirectory(text):
        if let url = URL(string: text) { values.temporaryDirectory = url }
      default: break
      }
    }
  }

  /// Values the step recorded that the reducer did not read this time.
  var unreadValues: Int {
    (uuids.count - min(nextUUID, uuids.count)) + (dates.count - min(nextDate, dates.count))
      + (randoms.count - min(nextRandom, randoms.count))
      + (stackElementIDs.count - min(nextStackElementID, stackElementIDs.count))
  }

  /// How the values the reducer read this time differ from those the step recorded; `nil`
  /// when it read as many of each kind (and so the very values recorded).
  var readsDifference: DependencyReadsDifference? {
    // Checked without building dictionaries: this runs on every replayed step.
    if nextUUID == uuids.count, nextDate == dates.count, nextRandom == randoms.count,
      nextStackElementID == stackElementIDs.count
    {
      return nil
    }
    let recorded = [
      "uuid": uuids.count, "date": dates.count, "random": randoms.count,
      "stackElementID": stackElementIDs.count,
    ]
    let replayed = [
      "uuid": nextUUID, "date": nextDate, "random": nextRandom,
      "stackElementID": nextStackElementID,
    ]
    return DependencyReadsDifference(
      recorded: recorded.filter { $0.value > 0 }, replayed: replayed.filter { $0.value > 0 }
    )
  }

  func uuid() -> UUID {
    defer { nextUUID += 1 }
    guard nextUUID < uuids.count else {
      extraReads += 1
      return Self.standInUUID(UInt64(nextUUID))
    }
    return uuids[nextUUID]
  }

  func date() -> Date {
    defer { nextDate += 1 }
    guard nextDate < dates.count else {
      extraReads += 1
      // The last date the step read is the likeliest stand-in for "now"; else the epoch.
      return dates.last ?? Date(timeIntervalSinceReferenceDate: 0)
    }
    return dates[nextDate]
  }

  func random() -> UInt64 {
    defer { nextRandom += 1 }
    guard nextRandom < randoms.count else {
      extraReads += 1
      return fallbackRandom.next()
    }
    return randoms[nextRandom]
  }

  /// `FFFFFFFF-FFFF-FFFF-FFFF-` followed by the count: easy to spot in a diff as made up.
  /// The next stack element id: the recorded one, else one past the last handed out.
  func stackElementID(consume: Bool) -> Int {
    let id =
      nextStackElementID < stackElementIDs.count
      ? stackElementIDs[nextStackElementID] : lastStackElementID + 1
    if consume {
      if nextStackElementID >= stackElementIDs.count { extraReads += 1 }
      nextStackElementID += 1
      lastStackElementID = id
    }
    return id
  }

  static func standInUUID(_ count: UInt64) -> UUID {
    var bytes: uuid_t = (
      0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0
    )
    withUnsafeMutableBytes(of: &bytes) { buffer in
      for index in 0..<6 {
        buffer[15 - index] = UInt8(truncatingIfNeeded: count >> (8 * UInt64(index)))
      }
    }
    return UUID(uuid: bytes)
  }

  /// Installs this feed as `uuid`, `date` and `withRandomNumberGenerator` in `values`.
  func install(into values: inout DependencyValues) {
    values.uuid = UUIDGenerator { self.uuid() }
    values.date = DateGenerator { self.date() }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(FeedGenerator(feed: self))
    values.stackElementID = StackElementIDGenerator(
      next: { self.stackElementID(consume: true) },
      peek: { self.stackElementID(consume: false) },
      skipPast: { self.lastStackElementID = max(self.lastStackElementID, $0) }
    )
  }
}

/// The random number generator a feed installs: recorded numbers first, then stand-ins.
// unchecked: holds a `DependencyFeed`, which one replay thread at a time uses
private struct FeedGenerator: RandomNumberGenerator, @unchecked Sendable {
  let feed: DependencyFeed
  mutating func next() -> UInt64 { feed.random() }
}
