import Foundation
import TestSupport
import Testing

@testable import tca_replay

/// The host option group, declared once (`HostSettings`), read the same by every command that
/// runs a host; and the verification `verify` runs, called without the command.
@Suite("Host settings and verification")
struct HostSettingsTests {
  static let host = ToolRunner.executable.deletingLastPathComponent()
    .appendingPathComponent("example-replay-host").path

  @Test("every command that runs a host declares the one group, and reads it the same")
  func oneGroup() throws {
    let commands: [any Command.Type] = [
      BisectCommand.self, BlameCommand.self, VerifyCommand.self, ShrinkCommand.self,
      StepCommand.self, ViewCommand.self,
    ]
    for command in commands {
      let keys = command.options.map(\.key)
      #expect(keys.filter { ["--host", "--timeout", "--host-log"].contains($0) }.count == 3)
      let positionals = command.positionals.map { _ in "1" }
      let given = try Arguments(
        parsing: positionals + ["--host", "h", "--timeout", "2.5", "--host-log", "l"],
        for: command)
      let settings = try #require(try HostSettings(given: given), "\(command.name)")
      #expect(settings.command == "h")
      #expect(settings.timeout == .milliseconds(2_500))
      #expect(settings.logPath == "l")
    }
    // Which need it is the command's: the stepper and the viewer run without a host.
    #expect(StepCommand.options.first { $0.key == "--host" }?.isRequired == false)
    #expect(VerifyCommand.options.first { $0.key == "--host" }?.isRequired == true)
  }

  @Test("without --host: no settings, and --timeout or --host-log alone is a usage error")
  func noHost() throws {
    let none = try Arguments(parsing: ["t.ndjson"], for: StepCommand.self)
    #expect(try HostSettings(given: none) == nil)
    for orphan in [["--timeout", "1"], ["--host-log", "l"]] {
      let given = try Arguments(parsing: ["t.ndjson"] + orphan, for: StepCommand.self)
      #expect(throws: UsageError.self) { try HostSettings(given: given) }
    }
    let defaults = try Arguments(parsing: ["t.ndjson", "--host", "h"], for: StepCommand.self)
    #expect(try HostSettings(given: defaults)?.timeout == HostSettings.defaultTimeout)
  }

  @Test("TraceVerifier verifies a trace recorded now, and a missing one, with no command")
  func verifier() throws {
    let folder = Scratch.url("verifier").path
    let record = try ChildProcess.run(
      ToolRunner.executable.deletingLastPathComponent().appendingPathComponent("record-traces")
        .path, [folder])
    #expect(record.status == 0)
    let verifier = TraceVerifier(settings: HostSettings(command: Self.host))
    var running: HostProcess?
    defer { running?.finish() }
    let ok = try verifier.verify(folder + "/counter.ndjson", in: &running)
    #expect(ok.verdict == .matches)
    #expect(ok.text.hasPrefix("ok           \(folder)/counter.ndjson: "), "\(ok.text)")
    #expect(running != nil)  // Kept for the next trace.
    let missing = try verifier.verify(folder + "/none.ndjson", in: &running)
    #expect(missing.verdict == .cannotTest)
    #expect(missing.text.hasPrefix("cannot test  "), "\(missing.text)")
  }
}
