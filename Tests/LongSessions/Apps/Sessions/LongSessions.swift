import Architecture
import Foundation
import Recorder

/// The long sessions: each app driven through 400 steps and more, recorded by today's recorder.
///
/// ```swift
/// let steps = try await recordChatRoomSession(to: path)
/// ```
public enum LongSession: String, CaseIterable, Sendable {
  /// The chat room: 442 steps, its token redacted.
  case chatRoom = "chat-room"
  /// The ledger: 430 steps.
  case ledger
  /// The warehouse: 442 steps.
  case warehouse

  /// The token the chat room's session signs in with; redacted, so it never reaches a trace.
  public static let chatRoomToken = "sk_live_4f9d2c7be81a03e6"

  /// The chat room's redactions: the token in `loggedIn(token:)` and in `sessionToken`.
  public static let chatRoomRedactions: [Redaction] = [.key("token"), .key("sessionToken")]

  /// The app's root reducer, as gen-test names it with `--reducer`.
  public var reducerName: String {
    switch self {
    case .chatRoom: "ChatRoom"
    case .ledger: "Ledger"
    case .warehouse: "Warehouse"
    }
  }

  /// Records the session to `path` and returns how many steps the store reduced.
  @MainActor
  public func record(to path: String) async throws -> Int {
    switch self {
    case .chatRoom: try await recordChatRoomSession(to: path)
    case .ledger: try await recordLedgerSession(to: path)
    case .warehouse: try await recordWarehouseSession(to: path)
    }
  }
}

/// Records the chat room's session to `path` (the token redacted); returns the steps reduced.
@MainActor
public func recordChatRoomSession(to path: String) async throws -> Int {
  let recorder = try TraceRecorder(
    path: path, options: .init(redactions: LongSession.chatRoomRedactions))
  let clock = TestClock()
  let store = Store(initialState: ChatRoom.State()) {
    ChatRoom().recording(to: recorder)
  } withDependencies: {
    $0.chatClient = .liveValue
    $0.continuousClock = clock
    $0.date = tickingDate()
    $0.stackElementID = .incrementing()
    $0.uuid = .incrementing
  }
  await playChatRoomSession(LongSessionDriver(store: store, clock: clock, seed: 35))
  try recorder.close()
  return try stepCount(ofTraceAt: path)
}

/// Records the ledger's session to `path`; returns the steps reduced.
@MainActor
public func recordLedgerSession(to path: String) async throws -> Int {
  let recorder = try TraceRecorder(path: path)
  let clock = TestClock()
  let store = Store(initialState: Ledger.State()) {
    Ledger().recording(to: recorder)
  } withDependencies: {
    $0.continuousClock = clock
    $0.date = tickingDate()
    $0.ledgerEngine = .liveValue
  }
  await playLedgerSession(LongSessionDriver(store: store, clock: clock, seed: 36))
  try recorder.close()
  return try stepCount(ofTraceAt: path)
}

/// Records the warehouse's session to `path`; returns the steps reduced.
@MainActor
public func recordWarehouseSession(to path: String) async throws -> Int {
  let recorder = try TraceRecorder(path: path)
  let clock = TestClock()
  let store = Store(initialState: Warehouse.State()) {
    Warehouse().recording(to: recorder)
  } withDependencies: {
    $0.continuousClock = clock
    $0.date = tickingDate()
    $0.stockClient = .liveValue
    $0.uuid = .incrementing
  }
  await playWarehouseSession(LongSessionDriver(store: store, clock: clock, seed: 37))
  try recorder.close()
  return try stepCount(ofTraceAt: path)
}

/// How many step records the trace at `path` holds.
func stepCount(ofTraceAt path: String) throws -> Int {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  let prefix = Array(#"{"kind":"step""#.utf8)
  return data.split(separator: UInt8(ascii: "\n")).count { $0.starts(with: prefix) }
}
