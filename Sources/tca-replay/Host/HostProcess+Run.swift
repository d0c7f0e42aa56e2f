import Recorder
import TraceJSON

extension HostProcess {
  /// What the host answered a `run` request.
  enum RunAnswer {
    case outcome(HistoryOutcome)
    /// The host could not run the history: `problem` is the protocol's problem name.
    case refused(problem: String, message: String)
    /// The reducer crashed; the crash's `step` is the history's entry, not a trace step.
    case crashed(HostCrash)
  }

  /// Asks the host to run `history` (protocol version 2).
  func run(_ history: History) throws(HostError) -> RunAnswer {
    guard speaks >= 2 else {
      throw stopped(
        "speaks replay host protocol version \(speaks), which cannot run an edited history: "
          + "rebuild the host with this tca-replay's Recorder (version 2)")
    }
    let id = takeRequestID()
    let request = HostMessage.json(HostMessage.Run(id: id, history: history))
    switch try converse(request, id: id, about: history.trace, answer: "outcome") {
    case let .answer(message):
      guard let outcome = HostMessage.read(HostMessage.Outcome.self, from: message)?.outcome,
        outcome.ran >= 0, outcome.ran <= history.entries.count
      else {
        throw nonsense(message.jsonString, expected: "an outcome")
      }
      return .outcome(outcome)
    case let .refused(problem, message): return .refused(problem: problem, message: message)
    case let .crashed(crash): return .crashed(crash)
    }
  }
}
