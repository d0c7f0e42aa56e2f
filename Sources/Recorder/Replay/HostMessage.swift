import TraceJSON

/// The replay host protocol's messages (`Documentation/ReplayHostProtocol.md`), one type each:
/// the side that writes a message and the side that reads it use the same type.
///
/// Members are declared in the order they are written, so the lines are the bytes versions 1
/// to 3 always wrote. Readers are as lenient as the protocol asks: a member of the wrong type is
/// read as absent where the protocol gives it a default. The one message not written through
/// these types is `crash`, which the host's signal handler writes from a fixed buffer.
/// `run` carries a history in `History`'s own form.
package enum HostMessage {
  /// `message` as a line's value. A message of plain members always encodes; one carrying a
  /// report or an outcome is encoded with `JSONValueEncoder`, which may throw.
  package static func json(_ message: some Encodable) -> JSONValue {
    do {
      return try JSONValueEncoder().encode(message)
    } catch {
      preconditionFailure("a message of plain members does not encode: \(error)")
    }
  }

  /// `message` read as `Message`; `nil` when it is not one.
  package static func read<Message: Decodable>(
    _ type: Message.Type, from message: JSONValue
  ) -> Message? {
    try? JSONValueDecoder().decode(type, from: message)
  }

  /// What every message starts with: its kind, and the request it answers.
  package struct Head: Decodable, Sendable {
    /// `nil` when absent or not a string: a kind no reader knows, skipped.
    package var kind: String?
    /// `nil` when absent; `null` for an `error` about a request the host could not read.
    package var id: JSONValue?

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      kind = try? container.decode(String.self, forKey: .kind)
      id = try? container.decode(JSONValue.self, forKey: .id)
    }

    private enum CodingKeys: String, CodingKey {
      case kind, id
    }
  }

  /// `hello`: the host's first line, its protocol version and the reducers it serves.
  package struct Hello: Codable, Sendable {
    package var kind = "hello"
    package var `protocol`: Int
    package var tool: String
    package var reducers: [Reducer]

    /// One reducer the host serves, by its types.
    package struct Reducer: Codable, Sendable {
      package var reducer: String
      package var stateType: String
      package var actionType: String

      package init(reducer: String, stateType: String, actionType: String) {
        self.reducer = reducer
        self.stateType = stateType
        self.actionType = actionType
      }
    }

    package init(protocol version: Int, tool: String, reducers: [Reducer]) {
      self.protocol = version
      self.tool = tool
      self.reducers = reducers
    }
  }

  /// `replay`: replay a trace and answer with a `report`.
  package struct Replay: Codable, Sendable {
    package var kind = "replay"
    package var id: JSONValue
    package var trace: String
    /// `isolated` or `cumulative`; absent: `isolated`.
    package var mode: String?
    package var maximumDivergences: Int?
    package var precedingSteps: Int?
    /// Threads reducing in isolated mode; absent: one per core.
    package var workers: Int?

    package init(
      id: Int, trace: String, mode: String, maximumDivergences: Int, precedingSteps: Int,
      workers: Int?
    ) {
      self.id = .integer(Int64(id))
      self.trace = trace
      self.mode = mode
      self.maximumDivergences = maximumDivergences
      self.precedingSteps = precedingSteps
      self.workers = workers
    }
  }

  /// `run` from tca-replay (protocol version 2): a history in `History`'s own form, which the
  /// host reads back with `History(json:)` and its one-line errors, then `kind` and `id`.
  package struct Run: Encodable, Sendable {
    package var id: Int
    package var history: History

    package init(id: Int, history: History) {
      self.id = id
      self.history = history
    }

    package func encode(to encoder: any Encoder) throws {
      guard case var .object(members) = history.json else { preconditionFailure("an object") }
      members["kind"] = "run"
      members["id"] = .integer(Int64(id))
      try JSONValue.object(members).encode(to: encoder)
    }
  }

  /// `blame` from tca-replay (protocol version 3): run one step again, instrumented.
  package struct BlameRequest: Codable, Sendable {
    package var kind = "blame"
    package var id: JSONValue
    package var trace: String
    package var step: Int

    package init(id: Int, trace: String, step: Int) {
      self.id = .integer(Int64(id))
      self.trace = trace
      self.step = step
    }
  }

  /// `bye`: tca-replay is done; the host exits.
  package struct Bye: Codable, Sendable {
    package var kind = "bye"

    package init() {}
  }

  /// `progress`: how many steps the host has reduced for a request so far.
  package struct Progress: Codable, Sendable {
    package var kind = "progress"
    package var id: JSONValue
    package var steps: Int

    package init(id: JSONValue, steps: Int) {
      self.id = id
      self.steps = steps
    }
  }

  /// `error`: the host cannot answer a request; `id` is `null` for one it could not read.
  package struct Failure: Codable, Sendable {
    package var kind = "error"
    package var id: JSONValue
    /// `missingTrace`, `malformedTrace`, `noReducer`, `badRequest`; read as `unknown` if absent.
    package var problem: String
    package var message: String

    package init(id: JSONValue, problem: String, message: String) {
      self.id = id
      self.problem = problem
      self.message = message
    }

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = (try? container.decode(JSONValue.self, forKey: .id)) ?? .null
      problem = (try? container.decode(String.self, forKey: .problem)) ?? "unknown"
      message = (try? container.decode(String.self, forKey: .message)) ?? "(no message)"
    }
  }

  /// `report`: the answer to `replay`.
  package struct Report: Codable, Sendable {
    package var kind = "report"
    package var id: JSONValue
    package var report: ReplayReport

    package init(id: JSONValue, report: ReplayReport) {
      self.id = id
      self.report = report
    }
  }

  /// `outcome`: the answer to `run` (protocol version 2).
  package struct Outcome: Codable, Sendable {
    package var kind = "outcome"
    package var id: JSONValue
    package var outcome: HistoryOutcome

    package init(id: JSONValue, outcome: HistoryOutcome) {
      self.id = id
      self.outcome = outcome
    }
  }

  /// `blame` from the host: the answer to a `blame` request, checked by the tool member by
  /// member (`BlameReply`).
  package struct Blame: Codable, Sendable {
    package var kind = "blame"
    package var id: JSONValue
    package var blame: JSONValue

    package init(id: JSONValue, blame: JSONValue) {
      self.id = id
      self.blame = blame
    }
  }

  /// `crash`: the host is dying of a signal while it reduces `step` (none: outside any step).
  package struct Crash: Decodable, Sendable {
    package var kind = "crash"
    package var id: JSONValue?
    package var step: Int?
    package var signal: Int32

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try? container.decode(JSONValue.self, forKey: .id)
      step = try? container.decode(Int.self, forKey: .step)
      signal = (try? container.decode(Int32.self, forKey: .signal)) ?? 0
    }

    private enum CodingKeys: String, CodingKey {
      case kind, id, step, signal
    }
  }
}
