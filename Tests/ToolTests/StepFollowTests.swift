import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `step --follow` against a real recorder: a `record-traces` child records a ledger into
/// rotated segments ten steps at a time, released by the test through a FIFO, while the stepper,
/// started first, reads its commands from another FIFO. Nothing is timed: each command is sent
/// once the output it waits for has appeared.
@Suite("step --follow")
struct StepFollowTests {
  typealias Runner = ToolRunner

  /// The stepper, the recorder and the FIFOs that drive them.
  struct Session {
    let trace: String
    let stepper: BackgroundProcess
    let commands: FIFO
    let recorder: BackgroundProcess
    let gate: FIFO

    /// Starts the stepper on `trace`, which does not exist yet, then a recorder of `steps`
    /// postings into segments of `maxBytes` that pauses before every tenth step until released.
    init(steps: Int, maxBytes: Int) throws {
      let directory = try FollowTests.scratch()
      let trace = directory + "/ledger.ndjson"
      let commands = try FIFO(directory + "/commands")
      let stepper = try BackgroundProcess(
        Runner.executable.path, ["step", trace, "--follow"], input: commands.path)
      #expect(stepper.wait(until: { $0.errors.contains("waiting for \(trace) to appear") }))
      let gate = try FIFO(directory + "/gate")
      recorder = try BackgroundProcess(
        FollowTests.recorder,
        ["--ledger-rotating", "\(steps)", "\(maxBytes)", "100", trace, "--pause-every", "10"],
        input: gate.path)
      (self.trace, self.commands, self.stepper, self.gate) = (trace, commands, stepper, gate)
    }

    /// Whether some segment of the trace holds step `index`'s line.
    func recorded(_ index: Int) -> Bool { Self.recorded(index, in: trace) }

    /// Whether some segment of the trace at `trace` holds step `index`'s line.
    static func recorded(_ index: Int, in trace: String) -> Bool {
      let directory = (trace as NSString).deletingLastPathComponent
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      return names.filter { $0.hasPrefix("ledger.ndjson") }.contains { name in
        let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
        return text.contains(#"{"kind":"step","index":\#(index),"#)
      }
    }

    /// Sends a command, then waits until the stepper's output holds `expected`, `count` times.
    func send(_ command: String, until expected: String, count: Int = 1) {
      commands.send(command + "\n")
      let seen = stepper.wait(until: { $0.output.components(separatedBy: expected).count > count })
      #expect(seen, "after '\(command)', no '\(expected)' in:\n\(stepper.output)")
    }
  }

  @Test("last and continue move with the recording, through rotation, until the end record")
  func followsRecording() throws {
    // Segments of about six steps: a batch of ten crosses a rotation.
    let session = try Session(steps: 30, maxBytes: 8000)
    #expect(session.stepper.wait(until: { _ in session.recorded(9) }))
    session.send("last", until: "step 9/9 ")
    session.send("watch /balances/savings", until: "Watching /balances/savings: now 18")
    session.send("continue", until: "waiting for the recording")

    // Steps 10 to 19: step 12 posts 12 cents to savings.
    session.gate.send("\n")
    let change = "Watch /balances/savings: 18 → 30"
    #expect(session.stepper.wait(until: { $0.output.contains(change) }))
    #expect(session.stepper.wait(until: { $0.output.contains("step 12/") }))
    #expect(session.stepper.output.contains("The recording went on in"))
    #expect(session.stepper.wait(until: { _ in session.recorded(19) }))
    session.send("continue", until: "step 15/")
    session.send("continue", until: "step 18/")
    session.send("continue", until: "waiting for the recording", count: 2)

    // Steps 20 to 29, then the end record.
    session.gate.send("\n")
    #expect(session.stepper.wait(until: { $0.output.contains("step 21/") }))
    session.gate.send("\n")
    let recorded = session.recorder.waitForExit()
    #expect(recorded.status == 0 && !recorded.timedOut)
    session.send("last", until: "step 29/29 ")
    #expect(
      session.stepper.output.contains(
        "The recording ended: the recorder closed the trace at step 29. No longer following."))
    session.send("back 2", until: "step 27/29 ")
    session.commands.send("quit\n")
    let stepped = session.stepper.waitForExit()
    #expect(stepped.status == 0 && !stepped.timedOut, "\(stepped.errors)")
    // No note of steps rotated away: every step was reached.
    let errors = String(decoding: stepped.errors, as: UTF8.self)
    #expect(errors == "waiting for \(session.trace) to appear\n")
  }

  @Test("started on a rotated recording, it steps back into the older kept segments, and follows")
  func reachesOlderSegments() throws {
    let directory = try FollowTests.scratch()
    let trace = directory + "/ledger.ndjson"
    let gate = try FIFO(directory + "/gate")
    // Segments of one or two steps after the first: 0…9 are in three files before it starts.
    let recorder = try BackgroundProcess(
      FollowTests.recorder,
      ["--ledger-rotating", "30", "3000", "100", trace, "--pause-every", "10"],
      input: gate.path)
    #expect(recorder.wait(until: { _ in Session.recorded(9, in: trace) }))
    #expect(FileManager.default.fileExists(atPath: trace + ".1"))
    let commands = try FIFO(directory + "/commands")
    let stepper = try BackgroundProcess(
      Runner.executable.path, ["step", trace, "--follow"], input: commands.path)
    func send(_ command: String, until expected: String) {
      commands.send(command + "\n")
      let seen = stepper.wait(until: { $0.output.contains(expected) })
      #expect(seen, "after '\(command)', no '\(expected)' in:\n\(stepper.output)")
    }
    #expect(stepper.wait(until: { $0.output.contains("10 steps (0…9)") }), "\(stepper.output)")
    send("goto 0", until: "step 0/9 ")
    send("last", until: "step 9/9 ")
    // Steps 10 to 19, in newer segments: 'last' walks into them, and back out again.
    gate.send("\n")
    #expect(recorder.wait(until: { _ in Session.recorded(19, in: trace) }))
    send("last", until: "step 19/19 ")
    #expect(stepper.output.contains("The recording went on in"))
    send("back 15", until: "step 4/19 ")
    send("watch /balances/savings", until: "Watching /balances/savings")
    // Savings takes every third posting: steps 3 (3) and 6 (9).
    send("continue", until: "Watch /balances/savings: 3 → 9")
    send("reverse-continue", until: "step 3/19 ")
    send("first", until: "initial state")
    gate.send("\n")
    gate.send("\n")
    #expect(recorder.waitForExit().status == 0)
    send("last", until: "step 29/29 ")
    send("goto 1", until: "step 1/29 ")
    commands.send("quit\n")
    let stepped = stepper.waitForExit()
    #expect(stepped.status == 0 && !stepped.timedOut, "\(stepped.errors)")
    // Nothing was rotated away unread, and nothing waited.
    #expect(String(decoding: stepped.errors, as: UTF8.self) == "")
  }

  @Test("Ctrl-C stops a continue that waits for the recording, and the stepper stays open")
  func interruptStopsWaiting() throws {
    // One file: the new steps are lines appended to the one the stepper has open.
    let session = try Session(steps: 20, maxBytes: 100_000_000)
    #expect(session.stepper.wait(until: { _ in session.recorded(9) }))
    session.send("last", until: "step 9/9 ")
    session.send("watch /balances/cash", until: "Watching /balances/cash")
    session.send("continue", until: "waiting for the recording")
    kill(session.stepper.pid, SIGINT)
    #expect(
      session.stepper.wait(until: {
        $0.output.contains("Stopped waiting: no step so far changes /balances/cash.")
      }))
    session.send("print /balances/savings", until: "18\n")
    session.gate.send("\n")
    session.gate.send("\n")
    #expect(session.recorder.waitForExit().status == 0)
    session.send("continue", until: "Watch /balances/cash: 27 → 37")
    session.commands.send("quit\n")
    let stepped = session.stepper.waitForExit()
    #expect(stepped.status == 0 && stepped.signal == nil && !stepped.timedOut)
  }
}
