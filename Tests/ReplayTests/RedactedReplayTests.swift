import Architecture
import Foundation
@testable import Recorder
import Testing
@testable import TraceJSON

/// An account whose secrets are of every kind of type: a number, a dictionary, a set whose
/// members are hidden one by one, an enum.
private struct Account: Reducer {
  struct State: Codable, Equatable {
    var count = 0
    var pin = 1234
    var balances: [String: Int] = ["main": 10, "savings": 20]
    var emails: Set<String> = ["a@example.com", "b@example.com"]
    var tier: Tier = .gold
    var shown: Tier = .silver
  }
  enum Tier: String, Codable, Equatable { case silver, gold }
  enum Action: Codable, Equatable {
    case tapped
    case emailAdded(String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tapped: state.count += 1
    case let .emailAdded(email): state.emails.insert(email)
    }
    return .none
  }
}

@Suite("Replaying redacted traces")
struct RedactedReplayTests {
  @Test(
    "redacted values of any type stand in as their declared type: steps that do not read them replay",
    arguments: [ReplayMode.isolated, .cumulative])
  func standIns(mode: ReplayMode) throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("redacted-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try TraceRecorder(
      path: path,
      options: .init(redactions: [.key("pin"), .key("balances"), .path("/emails/*"), .key("tier")]))
    let reducer = Account().recording(to: recorder)
    var state = Account.State()
    for index in 0..<40 {
      _ = reducer.reduce(into: &state, action: index == 20 ? .emailAdded("c@example.com") : .tapped)
    }
    try recorder.close()
    // Times are left out: a step's time may hold the digits 1234 by chance.
    let text = try String(contentsOfFile: path, encoding: .utf8)
      .replacing(/"(time|started)":("[^"]*"|[0-9.e+-]+)/, with: "")
    #expect(!text.contains("a@example.com") && !text.contains("1234"))

    let report = try Replayer(reducer: Account(), options: .init(mode: mode)).replay(tracePath: path)
    #expect(report.divergentSteps == 0)
    // Step 20's action holds the email, which is not redacted: every step replays.
    #expect(report.unknown == 0, "\(report.unknown) of \(report.steps) steps unknown")
    #expect(report.replayed == 40)
  }
}

/// A subscription whose plan, an enum with a payload seen nowhere else, is hidden whole.
private struct Subscription: Reducer {
  struct State: Codable, Equatable {
    var plan: Plan = .team(seats: 5)
    var count = 0
  }
  enum Plan: Codable, Equatable {
    case solo
    case team(seats: Int)
  }
  enum Action: Codable, Equatable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

extension RedactedReplayTests {
  @Test("a hidden value whose type only it could describe is named at record time")
  func untypedRedactions() throws {
    let buffer = TraceBuffer()
    let recorder = TraceRecorder(
      sink: .memory(buffer), options: .init(redactions: [.key("plan"), .key("count")]))
    let reducer = Subscription().recording(to: recorder)
    var state = Subscription.State()
    _ = reducer.reduce(into: &state, action: .tapped)
    try recorder.close()
    let header = try #require(
      TraceRecord(json: JSONValue(parsing: buffer.lines[0])).flatMap {
        if case .header(let header) = $0 { header } else { nil }
      })
    var schema = TypeSchema()
    schema.merge(header.types)
    // The plan's cases are known only from the hidden value; the count is an Int.
    #expect(
      RedactedStandIns(schema: schema).untyped(in: header.initialState, type: header.stateType)
        == ["/plan"])
  }
}
