import Recorder
import TraceJSON

extension HostProcess {
  /// What the host answered a `blame` request.
  enum BlameAnswer {
    case blame(BlameReply)
    /// The host could not blame the step: `problem` is the protocol's problem name.
    case refused(problem: String, message: String)
    case crashed(HostCrash)
  }

  /// Asks the host to run `step` of the trace at `path` again, instrumented (protocol 3).
  func blame(path: String, step: Int) throws(HostError) -> BlameAnswer {
    guard speaks >= 3 else {
      throw stopped(
        "speaks replay host protocol version \(speaks), which cannot blame a step: "
          + "rebuild the host with this tca-replay's Recorder (version 3)")
    }
    let id = takeRequestID()
    let request = HostMessage.BlameRequest(id: id, trace: path, step: step)
    switch try converse(HostMessage.json(request), id: id, about: path, answer: "blame") {
    case let .answer(message):
      guard let json = HostMessage.read(HostMessage.Blame.self, from: message)?.blame,
        let reply = BlameReply(json), reply.step == step
      else {
        throw nonsense(message.jsonString, expected: "a blame of step \(step)")
      }
      return .blame(reply)
    case let .refused(problem, message): return .refused(problem: problem, message: message)
    case let .crashed(crash): return .crashed(crash)
    }
  }
}

/// A host's `blame` answer, checked: every member the protocol requires, of its type.
struct BlameReply {
  /// One composition boundary: `Reduce` at `Todos/TodoFeature.swift:41`.
  struct Frame {
    var kind: String
    var detail: String
    var file: String
    var line: Int

    /// `TodoFeature.swift:41 (forEach(\.todos))`.
    var text: String {
      let name = file.split(separator: "/").last.map(String.init) ?? file
      return "\(name):\(line) (\(kind)\(detail.isEmpty ? "" : "(\(detail))"))"
    }
  }
  struct Change {
    var path: JSONPointer
    var old: JSONValue?
    var new: JSONValue?
    /// Each writer's chain, innermost first; the writers in the order they wrote.
    var writers: [[Frame]]
  }
  struct Returned {
    var runs: Int
    var cancels: [String]
    var cancellable: [String]
    var chain: [Frame]
  }

  var step: Int
  var label: String
  var changes: [Change]
  var effects: [Returned]
  var json: JSONValue

  init?(_ json: JSONValue) {
    guard let step = json["step"]?.int64Value, let label = json["label"]?.stringValue,
      case let .array(changes)? = json["changes"], case let .array(effects)? = json["effects"]
    else { return nil }
    func frames(_ value: JSONValue?) -> [Frame]? {
      guard case let .array(items)? = value else { return nil }
      var frames: [Frame] = []
      for item in items {
        guard let kind = item["kind"]?.stringValue, let file = item["file"]?.stringValue,
          let line = item["line"]?.int64Value, line >= 0, line <= Int64(Int32.max)
        else { return nil }
        frames.append(
          Frame(
            kind: kind, detail: item["detail"]?.stringValue ?? "", file: file, line: Int(line)))
      }
      return frames
    }
    var readChanges: [Change] = []
    for change in changes {
      guard let text = change["path"]?.stringValue, let path = JSONPointer(text),
        case let .array(writers)? = change["writers"]
      else { return nil }
      var chains: [[Frame]] = []
      for writer in writers {
        guard let chain = frames(writer) else { return nil }
        chains.append(chain)
      }
      readChanges.append(Change(path: path, old: change["old"], new: change["new"], writers: chains))
    }
    var readEffects: [Returned] = []
    for effect in effects {
      guard let runs = effect["runs"]?.int64Value, runs >= 0, let chain = frames(effect["chain"]),
        case let .array(cancels)? = effect["cancels"],
        case let .array(cancellable)? = effect["cancellable"]
      else { return nil }
      readEffects.append(
        Returned(
          runs: Int(runs), cancels: cancels.compactMap(\.stringValue),
          cancellable: cancellable.compactMap(\.stringValue), chain: chain))
    }
    self.step = Int(step)
    self.label = label
    self.changes = readChanges
    self.effects = readEffects
    self.json = json
  }
}
