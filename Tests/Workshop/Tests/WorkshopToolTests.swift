import Foundation
import TestSupport
import Testing

/// What tripped a new user driving every command on the workshop's recording (issue 36): a
/// trace cut short read by every command alike, a broken one refused by every command at the
/// same line, `help <command>` and `--version` as other tools have them, and a what-if's
/// misspelt case answered with the closest one.
@MainActor
@Suite("The workshop's recording, through every command")
struct WorkshopToolTests {
  struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs `tca-replay` in the trace's folder, with no terminal and without `NO_COLOR`.
  static func tool(_ arguments: [String], in folder: String, input: String = "") throws -> Run {
    var environment = Scratch.environment
    environment.removeValue(forKey: "NO_COLOR")
    let result = try ChildProcess.run(
      WorkshopRecordingTests.executable("tca-replay"), arguments, directory: folder,
      environment: environment, input: Data(input.utf8), timeLimit: 120)
    return Run(
      status: result.status, output: String(decoding: result.output, as: UTF8.self),
      errors: String(decoding: result.errors, as: UTF8.self))
  }

  /// Every command that reads a trace, on `trace` (a file name in the folder), with `-o` files
  /// written to the folder.
  static func readingCommands(_ trace: String) -> [[String]] {
    [
      ["summary", trace], ["log", trace], ["show", trace, "5"], ["state", trace, "last"],
      ["diff", trace, "initial", "last"], ["search", trace, "fixie"], ["gen-test", trace],
      ["export", trace, "--format", "chrome-trace", "-o", "out.json"],
      ["export", trace, "--format", "json-patch", "-o", "out.ndjson"],
      ["view", trace, "-o", "out.html"], ["compare", trace, trace],
      ["bisect", trace, "--host", WorkshopRecordingTests.executable("workshop-replay-host")],
      ["shrink", trace, "--host", WorkshopRecordingTests.executable("workshop-replay-host")],
    ]
  }

  @Test("a trace cut mid-line is read by every command, each warning once of the same line")
  func cutShort() async throws {
    let path = try await WorkshopRecordingTests.record()
    let folder = (path as NSString).deletingLastPathComponent
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    // Nine lines and part of the tenth: the header and eight whole steps.
    let lineStarts = whole.indices.filter { whole[$0] == UInt8(ascii: "\n") }
    let cut = whole.prefix(lineStarts[8] + 1 + 40)
    try cut.write(to: URL(fileURLWithPath: "\(folder)/cut.ndjson"))
    let warning =
      "cut.ndjson:10: warning: the last line is incomplete (40 bytes); the recorder probably "
      + "stopped mid-write. It was skipped.\n"
    for arguments in Self.readingCommands("cut.ndjson") {
      let run = try Self.tool(arguments, in: folder)
      // shrink finds nothing to shrink in a session that replays: 1, as documented.
      #expect(run.status == (arguments[0] == "shrink" ? 1 : 0), "\(arguments): \(run.errors)")
      #expect(run.errors.hasPrefix(warning), "\(arguments): \(run.errors)")
      #expect(run.errors.components(separatedBy: "warning:").count == 2, "\(arguments)")
    }
    // The export is the trace less its cut line: a trace that reads without a warning.
    let exported = try String(contentsOfFile: "\(folder)/out.ndjson", encoding: .utf8)
    #expect(exported == String(decoding: cut.prefix(lineStarts[8] + 1), as: UTF8.self))
  }

  @Test("a trace with a broken line is refused by every command, exit 65, naming that line")
  func broken() async throws {
    let path = try await WorkshopRecordingTests.record()
    let folder = (path as NSString).deletingLastPathComponent
    var lines = try String(contentsOfFile: path, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[7] = String(lines[7].prefix(40)) + "\u{0}\u{FF} garbage" + lines[7].dropFirst(60)
    try lines.joined(separator: "\n").write(
      toFile: "\(folder)/broken.ndjson", atomically: true, encoding: .utf8)
    let error = "Error: broken.ndjson:8: not valid JSON: expected ',' or '}' at byte 40\n"
    for arguments in Self.readingCommands("broken.ndjson") {
      let run = try Self.tool(arguments, in: folder)
      #expect(run.status == 65, "\(arguments): \(run.errors)")
      #expect(run.errors == error, "\(arguments)")
    }
    // The stepper opens it, and says so where it reaches the line.
    let stepper = try Self.tool(["step", "broken.ndjson"], in: folder, input: "last\nq\n")
    #expect(stepper.status == 65)
    #expect(stepper.errors == error)
  }

  @Test("'help <command>' prints the command's help, and --version the tool's version")
  func helpAndVersion() throws {
    let folder = Scratch.root.path
    let help = try Self.tool(["help", "log"], in: folder)
    let logHelp = try Self.tool(["log", "--help"], in: folder)
    #expect(help.status == 0)
    #expect(help.output == logHelp.output)
    #expect(help.output.hasPrefix("OVERVIEW: Print one line per step"))
    let misspelt = try Self.tool(["help", "lgo"], in: folder)
    #expect(misspelt.status == 64)
    #expect(misspelt.errors.hasPrefix("Error: unknown command 'lgo'; did you mean 'log'?\n"))
    let version = try Self.tool(["--version"], in: folder)
    #expect(version.status == 0)
    let versionLine = /^tca-replay \d+\.\d+\.\d+\n$/
    #expect(version.output.firstMatch(of: versionLine) != nil, "\(version.output)")
  }

  @Test("a what-if's misspelt action case gets the closest case of the action type")
  func whatIfDidYouMean() async throws {
    let path = try await WorkshopRecordingTests.record()
    let folder = (path as NSString).deletingLastPathComponent
    let host = WorkshopRecordingTests.executable("workshop-replay-host")
    let run = try Self.tool(
      ["step", "workshop.ndjson", "--host", host], in: folder,
      input: "edit 4 .tikcet(id: UUID(0), action: .doneButtonTapped)\nq\n")
    #expect(run.status == 64)
    #expect(
      run.errors
        == "Error: the new action .tikcet(id: UUID(0), action: .doneButtonTapped) does not "
        + "decode as today's action type; write a case of it (.name or .name(label: value)) or "
        + "its JSON; did you mean '.ticket'?\n")
  }

  @Test("a misspelt member of a state path is refused with the closest member: state, step, log")
  func pathDidYouMean() async throws {
    let path = try await WorkshopRecordingTests.record()
    let folder = (path as NSString).deletingLastPathComponent
    let error =
      "Error: '/quote/faliure': no member 'faliure' in PartsQuote.State; members: ticketID, "
      + "part, isLookingUp, priceInPence, failure; did you mean 'failure'?\n"
    let state = try Self.tool(
      ["state", "workshop.ndjson", "15", "--path", "/quote/faliure"], in: folder)
    #expect(state.status == 64)
    #expect(state.errors.hasPrefix(error), "\(state.errors)")
    let stepper = try Self.tool(
      ["step", "workshop.ndjson"], in: folder, input: "goto 15\nprint /quote/faliure\nq\n")
    #expect(stepper.errors == error)
    // log --changed listed no step for it, and exited 0, as if nothing had changed.
    let log = try Self.tool(["log", "workshop.ndjson", "--changed", "/quote/faliure"], in: folder)
    #expect(log.status == 64)
    #expect(log.output == "")
    #expect(log.errors.hasPrefix(error), "\(log.errors)")
  }

  @Test("log --changed names an element picked by a printed UUID as search and watch name it")
  func changedPathForm() async throws {
    let path = try await WorkshopRecordingTests.record()
    let folder = (path as NSString).deletingLastPathComponent
    let log = try Self.tool(
      ["log", "workshop.ndjson", "--changed", "/tickets[id=UUID(0)]/minutesWorked"], in: folder)
    #expect(log.status == 0, "\(log.errors)")
    let element = "/tickets[id=00000000-0000-0000-0000-000000000000]"
    #expect(log.output.contains("~ \(element)/minutesWorked: 2 → 3\n"), "\(log.output)")
    let search = try Self.tool(["search", "workshop.ndjson", "Brompton"], in: folder)
    #expect(search.output.contains("\(element)/bike"), "\(search.output)")
  }
}
