import Architecture
import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

/// A client of the app's: the trace cannot hold its closure.
struct Almanac: Sendable {
  var motto: @Sendable () -> String
}

/// Counts the calls of `Almanac`'s and `Larder`'s default values, which no test pins.
let defaultCalls = LockIsolated(0)

extension Almanac: DependencyKey {
  static let liveValue = Almanac {
    defaultCalls.withValue { $0 += 1 }
    return "live"
  }
  static let testValue = Almanac {
    defaultCalls.withValue { $0 += 1 }
    return "default"
  }
}

extension DependencyValues {
  var almanac: Almanac {
    get { self[Almanac.self] }
    set { self[Almanac.self] = newValue }
  }
}

/// Reads every setting that differs between machines, and the app's client, while reducing.
struct Voyage: Reducer {
  struct State: Codable, Equatable {
    var lines: [String] = []
  }
  enum Action: Codable, Equatable {
    case planned(Double)
  }
  @Dependency(\.locale) var locale
  @Dependency(\.timeZone) var timeZone
  @Dependency(\.calendar) var calendar
  @Dependency(\.temporaryDirectory) var temporaryDirectory
  @Dependency(\.openURL) var openURL
  @Dependency(\.almanac) var almanac

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .planned(seconds):
      let date = Date(timeIntervalSinceReferenceDate: seconds)
      let parts = calendar.dateComponents([.weekday, .hour, .weekOfYear], from: date)
      state.lines.append(
        [
          locale.identifier, timeZone.identifier, "\(calendar.identifier)",
          "\(parts.weekday ?? 0) \(parts.hour ?? 0) \(parts.weekOfYear ?? 0)",
          temporaryDirectory.appendingPathComponent("plan.txt").path, almanac.motto(),
        ].joined(separator: " | "))
      let openURL = self.openURL
      return .run { _ in await openURL(URL(string: "https://example.com/plan")!) }
    }
  }
}

/// The machine a session is recorded on, or replayed on.
private struct Machine {
  var locale: String
  var timeZone: String
  var calendar: Calendar.Identifier
  var firstWeekday: Int
  var temporaryDirectory: String

  static let recording = Machine(
    locale: "fr_FR", timeZone: "Asia/Tokyo", calendar: .gregorian, firstWeekday: 2,
    temporaryDirectory: "/tmp/recording-machine/")
  static let replaying = Machine(
    locale: "en_US", timeZone: "America/New_York", calendar: .iso8601, firstWeekday: 1,
    temporaryDirectory: "/var/tmp/replaying-machine/")

  func set(_ values: inout DependencyValues) {
    values.locale = Locale(identifier: locale)
    values.timeZone = TimeZone(identifier: timeZone)!
    var calendar = Calendar(identifier: calendar)
    calendar.timeZone = TimeZone(identifier: timeZone)!
    calendar.firstWeekday = firstWeekday
    values.calendar = calendar
    values.temporaryDirectory = URL(fileURLWithPath: temporaryDirectory, isDirectory: true)
  }
}

/// A row whose default value reads the app's client, as SyncUps' list loads its sync-ups.
private struct Pantry: Codable, Equatable {
  var jars: [String]

  init() {
    @Dependency(\.larder) var larder
    jars = larder.load()
  }
}

private struct Larder: Sendable {
  var load: @Sendable () -> [String]
}

extension Larder: DependencyKey {
  static let liveValue = Larder {
    defaultCalls.withValue { $0 += 1 }
    return ["live jar"]
  }
  static let testValue = Larder {
    defaultCalls.withValue { $0 += 1 }
    return []
  }
}

extension DependencyValues {
  fileprivate var larder: Larder {
    get { self[Larder.self] }
    set { self[Larder.self] = newValue }
  }
}

/// A state whose member's default value reads a dependency: decoding it runs that default.
private struct Kitchen: Reducer {
  struct State: Codable, Equatable {
    var pantry = Pantry()
    var opened = 0
  }
  enum Action: Codable, Equatable {
    case opened
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.opened += 1
    return .none
  }
}

/// An error whose texts a reducer shows.
enum BankError: LocalizedError, Equatable {
  case unknownRecipient

  var errorDescription: String? { "The bank does not know that recipient" }
  var failureReason: String? { "No account has that number" }
  var recoverySuggestion: String? { "Check the number" }
}

/// Shows a failed transfer's `localizedDescription`, as TicTacToe's login does.
struct Transfer: Reducer {
  struct State: Codable, Equatable {
    var message = ""
    var suggestion = ""
  }
  enum Action: Codable, Equatable {
    case sent(TaskResult<Int>)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .sent(.success): state.message = "sent"
    case let .sent(.failure(error)):
      state.message = error.localizedDescription
      state.suggestion = (error as? any LocalizedError)?.recoverySuggestion ?? "none"
    }
    return .none
  }
}

@Suite("Dependencies that differ between machines are taped or pinned", .serialized)
struct DependencyPinningTests {
  /// A fresh trace path.
  static func path(_ name: String) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("pinning-\(UUID().uuidString)-\(name).ndjson").path
  }

  /// Records three `Voyage` steps on the recording machine, with the almanac pinned.
  @discardableResult
  static func recordVoyage(_ recorded: inout Voyage.State) throws -> String {
    let path = path("voyage")
    let recorder = try TraceRecorder(path: path)
    let reducer = Voyage().recording(to: recorder)
    var state = Voyage.State()
    defer { recorded = state }
    withDependencies {
      Machine.recording.set(&$0)
      $0.almanac = Almanac { "recorded motto" }
    } operation: {
      // A Sunday, a Wednesday and a Saturday: weekdays and weeks follow the calendar's zone.
      for seconds in [694_224_000.0, 694_483_200, 694_731_600] {
        _ = reducer.reduce(into: &state, action: .planned(seconds))
      }
    }
    try recorder.close()
    return path
  }

  static func recordVoyage() throws -> String {
    var state = Voyage.State()
    return try recordVoyage(&state)
  }

  @Test(
    "locale, time zone, calendar and temporary directory replay clean where they differ",
    arguments: [ReplayMode.isolated, .cumulative])
  func settingsReplayClean(mode: ReplayMode) throws {
    let path = try Self.recordVoyage()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#"{"locale":"fr_FR"}"#))
    #expect(text.contains(#"{"timeZone":"Asia/Tokyo"}"#))
    #expect(text.contains(#""temporaryDirectory":"file:///tmp/recording-machine/""#))
    #expect(text.contains(#""identifier":"gregorian","timeZone":"Asia/Tokyo""#))

    let report = try Replayer(reducer: Voyage(), options: .init(mode: mode)) {
      Machine.replaying.set(&$0)
      $0.almanac = Almanac { "recorded motto" }
    }.replay(tracePath: path)
    #expect(report.divergentSteps == 0, "\(report)")
    #expect(report.replayed == 3)
    #expect(report.unpinnedReads == nil)
  }

  @Test("the replaying machine's own settings would diverge: the recorded ones are what replay")
  func replayingMachineDiffers() throws {
    // Reduced directly on the replaying machine, the first step computes another line.
    var state = Voyage.State()
    withDependencies {
      Machine.replaying.set(&$0)
      $0.almanac = Almanac { "recorded motto" }
    } operation: {
      _ = Voyage().reduce(into: &state, action: .planned(694_224_000))
    }
    var recorded = Voyage.State()
    let path = try Self.recordVoyage(&recorded)
    try? FileManager.default.removeItem(atPath: path)
    #expect(state.lines[0] != recorded.lines[0])
    #expect(state.lines[0].hasPrefix("en_US | America/New_York | iso8601"))
    #expect(recorded.lines[0].hasPrefix("fr_FR | Asia/Tokyo | gregorian"))
  }

  @Test("a client the trace cannot hold is named in the verdict, with the line that pins it")
  func unpinnedClientIsNamed() throws {
    let path = try Self.recordVoyage()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#"{"client":"ReplayTests.Almanac""#))

    let report = try Replayer(reducer: Voyage()) { Machine.replaying.set(&$0) }
      .replay(tracePath: path)
    let read = try #require(report.unpinnedReads?.first)
    #expect(report.unpinnedReads?.count == 1)
    #expect(read.step == 0)
    #expect(read.key == "ReplayTests.Almanac")
    // On Linux the runtime names no property of a test target: the key type pins it then.
    let pin = read.property.map { "$0.\($0) = …" } ?? "$0[ReplayTests.Almanac.self] = …"
    #expect(
      report.description.contains(
        "unpinned: step 0 read \(read.name) (ReplayTests.Almanac), which the trace cannot "
          + "replay; pin it with ReplayTarget(Voyage(), withDependencies: { \(pin) })"),
      "\(report)")
  }

  @Test("a state whose default value reads a dependency is decoded in the replay's dependencies")
  func decodingUsesTheReplayScope() throws {
    let path = Self.path("kitchen")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path)
    let reducer = Kitchen().recording(to: recorder)
    withDependencies {
      $0.larder = Larder { ["recorded jar"] }
    } operation: {
      var state = Kitchen.State()
      for _ in 0..<3 { _ = reducer.reduce(into: &state, action: .opened) }
    }
    try recorder.close()

    defaultCalls.setValue(0)
    let pinnedCalls = LockIsolated(0)
    for mode in ReplayMode.allCases {
      let report = try Replayer(reducer: Kitchen(), options: .init(mode: mode)) {
        $0.larder = Larder {
          pinnedCalls.withValue { $0 += 1 }
          return []
        }
      }.replay(tracePath: path)
      #expect(report.divergentSteps == 0, "\(report)")
    }
    #expect(defaultCalls.value == 0, "a default value reached the unpinned client")
    #expect(pinnedCalls.value > 0)
  }

  @Test("a decoded state's unpinned read is named too")
  func decodingReadIsNamed() throws {
    let path = Self.path("kitchen-unpinned")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path)
    let reducer = Kitchen().recording(to: recorder)
    withDependencies { $0.larder = Larder { [] } } operation: {
      var state = Kitchen.State()
      _ = reducer.reduce(into: &state, action: .opened)
    }
    try recorder.close()
    let report = try Replayer(reducer: Kitchen()).replay(tracePath: path)
    #expect(report.unpinnedReads?.map(\.key) == ["ReplayTests.Larder"])
  }

  @Test("a TaskResult failure with a LocalizedError replays with the same localizedDescription")
  func localizedErrorReplays() throws {
    let path = Self.path("transfer")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(path: path)
    let reducer = Transfer().recording(to: recorder)
    var state = Transfer.State()
    _ = reducer.reduce(into: &state, action: .sent(.failure(BankError.unknownRecipient)))
    _ = reducer.reduce(into: &state, action: .sent(.success(1)))
    try recorder.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""localizedDescription":"The bank does not know that recipient""#))
    #expect(text.contains(#""mangledType":"#))

    for mode in ReplayMode.allCases {
      let report = try Replayer(reducer: Transfer(), options: .init(mode: mode))
        .replay(tracePath: path)
      #expect(report.divergentSteps == 0, "\(report)")
    }
  }

  @Test("gen-test sets the recorded settings, and a failure's error as itself, in the test")
  func generatedTestsSetWhatWasRecorded() throws {
    let voyage = try Self.recordVoyage()
    defer { try? FileManager.default.removeItem(atPath: voyage) }
    let source = try TestGenerator().generate(tracePath: voyage).source
    for line in [
      #"$0.locale = Locale(identifier: "fr_FR")"#,
      #"$0.timeZone = TimeZone(identifier: "Asia/Tokyo")!"#,
      #"$0.temporaryDirectory = URL(string: "file:///tmp/recording-machine/")!"#,
      "var calendar = Calendar(identifier: .gregorian)",
      #"calendar.timeZone = TimeZone(identifier: "Asia/Tokyo")!"#,
      "calendar.firstWeekday = 2",
    ] {
      #expect(source.contains(line), "no \(line) in:\n\(source)")
    }

    let transfer = Self.path("transfer-gen")
    defer { try? FileManager.default.removeItem(atPath: transfer) }
    let recorder = try TraceRecorder(path: transfer)
    var state = Transfer.State()
    _ = Transfer().recording(to: recorder)
      .reduce(into: &state, action: .sent(.failure(BankError.unknownRecipient)))
    try recorder.close()
    let failure = try TestGenerator().generate(tracePath: transfer).source
    // The error is written as itself, a case the test can name; a stand-in carries the texts
    // only for an error the test cannot write, as the plain corpus's TideServiceError in TideSearch.
    #expect(failure.contains(".sent(.failure(BankError.unknownRecipient))"), "\(failure)")
  }

  @Test("show lists the settings a step read, and the clients it read by name")
  func showListsReads() throws {
    let path = try Self.recordVoyage()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try ChildProcess.run(Paths.executable("tca-replay"), ["show", path, "0"])
    let output = String(decoding: run.output, as: UTF8.self)
    #expect(run.status == 0)
    #expect(
      output.contains(
        "read    calendar gregorian (Asia/Tokyo), locale fr_FR, time zone Asia/Tokyo, temporary "
          + "directory file:///tmp/recording-machine/, "), "\(output)")
    // On Linux the runtime names no property of a test target: the key type stands for it.
    #expect(
      output.contains("ReplayTests.Almanac (not recorded)")
        || output.contains(#"\.almanac (ReplayTests.Almanac, not recorded)"#), "\(output)")
  }

  @Test("verify names a client the host does not pin, and not one it pins; neither diverges")
  func verifyNamesUnpinnedClients() async throws {
    let unpinned = try await Run.tool(
      "verify", "Traces/counter.ndjson", "--host", ToolReplayTests.mutantHost(.clientRead))
    #expect(unpinned.status == 0, "\(unpinned.errors)")
    #expect(unpinned.output.hasPrefix("ok "))
    // Linux's runtime names no property of a key path (its accessors have no symbol names):
    // the key's type stands for it, in a line that compiles as it is.
    let named = ("\\.numberFact", "$0.numberFact = …")
    let typed = ("Counter.NumberFactClient.self", "$0[Counter.NumberFactClient.self] = …")
    #expect(
      [named, typed].contains { read, pin in
        unpinned.errors == "unpinned: Traces/counter.ndjson: step 0 read \(read) "
          + "(Counter.NumberFactClient), which the trace cannot replay; pin it with "
          + "ReplayTarget(CounterFeature(), withDependencies: { \(pin) })\n"
      }, "\(unpinned.errors)")

    let pinned = try await Run.tool(
      "verify", "Traces/counter.ndjson", "--host", ToolReplayTests.mutantHost(.clientPinned))
    #expect(pinned.status == 0)
    #expect(pinned.errors == "", "\(pinned.errors)")
  }

  @Test("a recorded error answers its recorded texts; one recorded before them still decodes")
  func recordedErrorTexts() throws {
    let recorded = RecordedError(BankError.unknownRecipient)
    let json = try JSONEncoder().encode(recorded)
    let decoded = try JSONDecoder().decode(RecordedError.self, from: json)
    let error: any Error = decoded
    #expect(error.localizedDescription == "The bank does not know that recipient")
    #expect(decoded.failureReason == "No account has that number")
    #expect(decoded.recoverySuggestion == "Check the number")
    #expect(decoded.helpAnchor == nil)
    #expect(decoded.mangledTypeName == _mangledTypeName(BankError.self))

    let old = try JSONDecoder().decode(
      RecordedError.self, from: Data(#"{"type":"Bank.BankError","description":"unknown"}"#.utf8))
    #expect(old.typeName == "Bank.BankError")
    #expect(old.recordedLocalizedDescription == nil && old.mangledTypeName == nil)
  }
}
