import Architecture
import Foundation
@testable import Recorder
import Testing
import TraceJSON

// Three apps in shapes the examples lack, written as a TCA user would (no Codable). Each line
// whose reducer writes state carries a `// blame: <name>` marker, which the tests read back.

/// A trip planner: a sheet that holds a stack.
struct BlamePlanner: Reducer {
  struct State: Equatable {
    @PresentationState var trip: BlameTrip.State?
    var plannedTrips = 0
  }
  enum Action {
    case planTapped
    case trip(PresentationAction<BlameTrip.Action>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in  // blame: planner
      switch action {
      case .planTapped:
        state.trip = BlameTrip.State()
        state.plannedTrips += 1
        return .none
      case .trip:
        return .none
      }
    }
    .ifLet(\.$trip, action: /Action.trip) {  // blame: planner-sheet
      BlameTrip()
    }
  }
}

struct BlameTrip: Reducer {
  struct State: Equatable {
    var name = ""
    var path = StackState<BlameStop.State>()
  }
  enum Action {
    case renamed(String)
    case stopAdded(String)
    case path(StackAction<BlameStop.State, BlameStop.Action>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in  // blame: trip
      switch action {
      case let .renamed(name):
        state.name = name
        return .none
      case let .stopAdded(place):
        state.path.append(BlameStop.State(place: place))
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: /Action.path) {  // blame: trip-stack
      BlameStop()
    }
  }
}

struct BlameStop: Reducer {
  struct State: Equatable {
    var place: String
    var nights = 0
  }
  enum Action { case nightAdded }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in  // blame: stop
      state.nights += 1
      return .none
    }
  }
}

/// Kettles in a kitchen: a `forEach` of children that each own an effect.
struct BlameKitchen: Reducer {
  struct State: Equatable {
    var kettles: IdentifiedArrayOf<BlameKettle.State> = []
    var switchedOn = 0
  }
  enum Action {
    case kettleAdded(Int)
    case kettle(id: Int, action: BlameKettle.Action)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in  // blame: kitchen
      switch action {
      case let .kettleAdded(id):
        state.kettles.append(BlameKettle.State(id: id))
        return .none
      case .kettle(_, .switchedOn):
        state.switchedOn += 1
        return .none
      case let .kettle(id, .boiled):
        // The kitchen counts a boil too: the same path, written by two reducers.
        state.kettles[id: id]?.boils += 10
        return .none
      }
    }
    .forEach(\.kettles, action: /Action.kettle(id:action:)) {  // blame: kitchen-each
      BlameKettle().dependency(\.uuid, .incrementing)  // blame: kettle-dependency
    }
  }
}

struct BlameKettle: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var isBoiling = false
    var boils = 0
  }
  enum Action {
    case switchedOn
    case boiled
  }
  enum CancelID { case boiling }
  var body: some ReducerOf<Self> {
    Reduce { state, action in  // blame: kettle
      switch action {
      case .switchedOn:
        state.isBoiling = true
        return .run { send in await send(.boiled) }.cancellable(id: CancelID.boiling)
      case .boiled:
        state.isBoiling = false
        state.boils += 1
        return .none
      }
    }
  }
}

/// A session: an enum state whose cases run through `ifCaseLet`.
struct BlameSession: Reducer {
  enum State: Equatable {
    case signedOut(BlameLogin.State)
    case signedIn(BlameHome.State)
  }
  enum Action {
    case login(BlameLogin.Action)
    case home(BlameHome.Action)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in  // blame: session
      if case .login(.submitted) = action, case let .signedOut(login) = state {
        state = .signedIn(BlameHome.State(user: login.name))
      }
      return .none
    }
    .ifCaseLet(/State.signedOut, action: /Action.login) {
      BlameLogin()
    }
    .ifCaseLet(/State.signedIn, action: /Action.home) {
      BlameHome()
    }
  }
}

struct BlameLogin: Reducer {
  struct State: Equatable {
    var name = ""
    var attempts = 0
  }
  enum Action {
    case typed(String)
    case submitted
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in  // blame: login
      switch action {
      case let .typed(name): state.name = name
      case .submitted: state.attempts += 1
      }
      return .none
    }
  }
}

struct BlameHome: Reducer {
  struct State: Equatable {
    var user: String
    var visits = 0
  }
  enum Action { case visited }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in  // blame: home
      state.visits += 1
      return .none
    }
  }
}

@Suite("Blame")
struct BlameTests {
  /// The line of each `// blame: name` marker in this file, read from the file itself.
  static let markers: [String: Int] = {
    let text = (try? String(contentsOfFile: #filePath, encoding: .utf8)) ?? ""
    var lines: [String: Int] = [:]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      guard let range = line.range(of: "// blame: ") else { continue }
      lines[String(line[range.upperBound...])] = number + 1
    }
    return lines
  }()

  static func path(_ name: String) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("blame-\(UUID().uuidString)-\(name).ndjson").path
  }

  /// Records `actions` (each built from the state before it) through `reducer`, today.
  static func record<R: Reducer>(
    _ reducer: R, from initial: R.State, _ name: String,
    _ actions: [(R.State) -> R.Action]
  ) throws -> String {
    let path = path(name)
    let recorder = try TraceRecorder(path: path)
    let recording = reducer.recording(to: recorder)
    var state = initial
    for action in actions { _ = recording.reduce(into: &state, action: action(state)) }
    try recorder.close()
    return path
  }

  /// Blames every step of the trace and checks each changed path's writers, innermost frame
  /// first, against the marker lines expected for the path's first component.
  static func check<R: Reducer>(
    _ reducer: R, trace path: String, steps: Int,
    expected: (_ step: Int, _ path: String) -> [String]
  ) throws -> [JSONValue] {
    let recording = try LoadedRecording.load(path, cached: nil)
    var answers: [JSONValue] = []
    for step in 0..<steps {
      let answer = try ReplayTarget(reducer).blame(step: step, in: recording)
      guard case let .array(changes)? = answer["changes"] else {
        Issue.record("step \(step): no changes in \(answer.jsonString)")
        continue
      }
      #expect(!changes.isEmpty, "step \(step) changed nothing")
      for change in changes {
        let at = change["path"]?.stringValue ?? "?"
        let lines = (change["writers"]?.arrayValue ?? []).map { writer in
          let frame = writer.arrayValue?.first
          #expect(frame?["file"]?.stringValue == "ReplayTests/BlameTests.swift")
          return Int(frame?["line"]?.int64Value ?? -1)
        }
        let names = expected(step, at)
        #expect(
          lines == names.map { markers[$0] ?? -2 },
          "step \(step) \(at): expected \(names), got lines \(lines)")
      }
      answers.append(answer)
    }
    return answers
  }

  /// Each step's changed paths, as the answers list them.
  static func paths(_ answers: [JSONValue]) -> [[String]] {
    answers.map { ($0["changes"]?.arrayValue ?? []).compactMap { $0["path"]?.stringValue } }
  }

  @Test("blame names each write's line in a stack inside a sheet, the dismissal included")
  func stackInsideSheet() throws {
    let path = try Self.record(
      BlamePlanner(), from: BlamePlanner.State(), "planner",
      [
        { _ in .planTapped },
        { _ in .trip(.presented(.renamed("Tuscany"))) },
        { _ in .trip(.presented(.stopAdded("Pisa"))) },
        { state in
          .trip(.presented(.path(.element(id: state.trip!.path.ids[0], action: .nightAdded))))
        },
        { _ in .trip(.dismiss) },
      ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let answers = try Self.check(BlamePlanner(), trace: path, steps: 5) { step, at in
      switch step {
      case 0: return ["planner"]
      case 1, 2: return ["trip"]
      case 3: return ["stop"]
      default: return ["planner-sheet"]
      }
    }
    #expect(
      Self.paths(answers) == [
        ["/trip", "/plannedTrips"], ["/trip/name"], ["/trip/path/0"],
        ["/trip/path/0/element/nights"], ["/trip"],
      ])
  }

  @Test("blame names each kettle's write and effect, and both writers of one path in order")
  func forEachWithEffects() throws {
    let path = try Self.record(
      BlameKitchen(), from: BlameKitchen.State(), "kitchen",
      [
        { _ in .kettleAdded(1) }, { _ in .kettleAdded(2) },
        { _ in .kettle(id: 2, action: .switchedOn) }, { _ in .kettle(id: 2, action: .boiled) },
      ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let answers = try Self.check(BlameKitchen(), trace: path, steps: 4) { step, at in
      switch (step, at) {
      case (0, _), (1, _): return ["kitchen"]
      case (2, "/switchedOn"): return ["kitchen"]
      case (2, _): return ["kettle"]
      case (3, "/kettles/1/boils"): return ["kettle", "kitchen"]
      default: return ["kettle"]
      }
    }
    #expect(
      Self.paths(answers) == [
        ["/kettles/0"], ["/kettles/1"], ["/kettles/1/isBoiling", "/switchedOn"],
        ["/kettles/1/isBoiling", "/kettles/1/boils"],
      ])
    let effect = answers[2]["effects"]?.arrayValue?.first
    #expect(effect?["runs"]?.int64Value == 1)
    #expect(effect?["chain"]?.arrayValue?.first?["line"]?.int64Value == Int64(Self.markers["kettle"]!))
    #expect(effect?["chain"]?.arrayValue?.dropFirst().first?["kind"]?.stringValue == "dependency")
    // The chain to a kettle's write: its Reduce, the dependency it runs with, the forEach.
    let write = answers[2]["changes"]?.arrayValue?.first { $0["path"] == "/kettles/1/isBoiling" }
    let chain = write?["writers"]?.arrayValue?.first?.arrayValue ?? []
    #expect(chain.compactMap { $0["kind"]?.stringValue }.prefix(3) == ["Reduce", "dependency", "forEach"])
    #expect(
      chain.compactMap { $0["line"]?.int64Value }.prefix(3)
        == ["kettle", "kettle-dependency", "kitchen-each"].map { Int64(Self.markers[$0]!) }[...])
  }

  @Test("blame follows an enum destination's case through ifCaseLet")
  func enumDestination() throws {
    let path = try Self.record(
      BlameSession(), from: BlameSession.State.signedOut(BlameLogin.State()), "session",
      [
        { _ in .login(.typed("ada")) }, { _ in .login(.submitted) }, { _ in .home(.visited) },
      ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let answers = try Self.check(BlameSession(), trace: path, steps: 3) { step, at in
      switch step {
      case 0: return ["login"]
      // The login counts the attempt in the case the session then leaves: both wrote there.
      case 1: return at.hasPrefix("/signedOut") ? ["login", "session"] : ["session"]
      default: return ["home"]
      }
    }
    #expect(
      Self.paths(answers) == [
        ["/signedOut/_0/name"], ["/signedOut", "/signedIn"], ["/signedIn/_0/visits"],
      ])
  }
}
