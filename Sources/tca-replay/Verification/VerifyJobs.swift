import Foundation

/// `verify --jobs`: replays traces on several threads, each with its own host, and hands the
/// outcomes back in the traces' order, whatever order they finish in.
///
/// A host failure ends the run as it does with one job: traces after it are not started, those
/// before it are finished, and it is handed back in its place, last.
struct VerifyJobs {
  var traces: [String]
  var jobs: Int
  var verifier: TraceVerifier

  /// What the jobs share: the next trace to take, and the outcomes by trace.
  // unchecked: once the jobs start, every var is read and written under `condition`
  private final class Board: @unchecked Sendable {
    let condition = NSCondition()
    var next = 0
    var stopped = false
    var results: [Int: Result<TraceVerifier.Outcome, HostError>] = [:]
    var running = 0
    var late: [String] = []
  }

  /// Calls `deliver` on this thread with each outcome in trace order, then `late` with each
  /// host's complaint on leaving; returns when every job has stopped its host.
  func run(
    deliver: (Result<TraceVerifier.Outcome, HostError>) -> Void, late: (String) -> Void
  ) {
    let board = Board()
    let traces = traces
    let verifier = verifier
    let count = min(jobs, max(traces.count, 1))
    board.running = count
    for _ in 0..<count {
      Thread.detachNewThread {
        var host: HostProcess?
        while true {
          board.condition.lock()
          guard !board.stopped, board.next < traces.count else {
            board.condition.unlock()
            break
          }
          let index = board.next
          board.next += 1
          board.condition.unlock()
          let start = ContinuousClock.now
          let result: Result<TraceVerifier.Outcome, HostError>
          do throws(HostError) {
            var outcome = try verifier.verify(traces[index], in: &host)
            let elapsed = ContinuousClock.now - start
            outcome.seconds =
              Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            result = .success(outcome)
          } catch {
            host = nil
            result = .failure(error)
          }
          board.condition.lock()
          board.results[index] = result
          if case .failure = result { board.stopped = true }
          board.condition.broadcast()
          board.condition.unlock()
        }
        let complaint = host?.finish()
        board.condition.lock()
        if let complaint { board.late.append("\(complaint)") }
        board.running -= 1
        board.condition.broadcast()
        board.condition.unlock()
      }
    }
    for index in traces.indices {
      board.condition.lock()
      while board.results[index] == nil { board.condition.wait() }
      let result = board.results.removeValue(forKey: index)!
      board.condition.unlock()
      deliver(result)
      if case .failure = result { break }
    }
    board.condition.lock()
    while board.running > 0 { board.condition.wait() }
    let complaints = board.late
    board.condition.unlock()
    for complaint in complaints { late(complaint) }
  }
}
