import Recorder

/// A replay host that runs histories: started on first use, and again after a history crashed
/// it or it failed.
final class HistoryHost {
  let settings: HostSettings
  private var host: HostProcess?

  init(settings: HostSettings) {
    self.settings = settings
  }

  deinit { host?.finish() }

  func run(_ history: History) throws(HostError) -> HostProcess.RunAnswer {
    do throws(HostError) {
      let running: HostProcess
      if let host {
        running = host
      } else {
        running = try settings.start()
      }
      host = running
      let answer = try running.run(history)
      if case .crashed = answer { host = nil }  // It died; the next history starts another.
      return answer
    } catch {
      host = nil
      throw error
    }
  }

  /// Blames `step` of the trace at `path` (protocol version 3): the stepper's `blame`.
  func blame(path: String, step: Int) throws(HostError) -> HostProcess.BlameAnswer {
    do throws(HostError) {
      let running: HostProcess
      if let host {
        running = host
      } else {
        running = try settings.start()
      }
      host = running
      let answer = try running.blame(path: path, step: step)
      if case .crashed = answer { host = nil }
      return answer
    } catch {
      host = nil
      throw error
    }
  }
}
