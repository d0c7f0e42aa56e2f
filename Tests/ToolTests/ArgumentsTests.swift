import Testing

@testable import tca_replay

/// The parser reads what a command declares, typed, and refuses the rest in one line.
@Suite("Arguments")
struct ArgumentsTests {
  /// A command declaring one of each kind of argument; it is never run.
  enum Sample: Command {
    static let name = "sample"
    static let abstract = "A command for these tests."
    static let overview = "Declares one of each kind of argument."
    static let positionals = [
      Positional.trace, Positional(name: "<more>", help: "More.", repeats: true),
    ]
    static let count = Option<Int>.count("--count", value: "<n>", help: "A count.")
    static let output = Option<String>("-o", "--output", value: "<file>", help: "Where.")
    static let host = Option<String>(
      "--host", value: "<command>", help: "A host.", required: true)
    static let json = Flag("--json", help: "JSON.")
    static let options: [any CommandOption] = [count, output, host, json]
    static func run(_ arguments: Arguments, _ context: CommandContext) -> tca_replay.ExitStatus {
      .success
    }
  }

  func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
    try Arguments(parsing: arguments, for: Sample.self)
  }

  func message(_ arguments: [String]) -> String? {
    do {
      _ = try parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test("values are read typed, under any of their names, with = or as the next argument")
  func typed() throws {
    let parsed = try parse(["t", "a", "b", "--count=3", "-o", "out", "--host", "h", "--json"])
    #expect(parsed.positionals == ["t", "a", "b"])
    #expect(parsed[Sample.count] == 3)
    #expect(parsed[Sample.output] == "out")
    #expect(parsed[required: Sample.host] == "h")
    #expect(parsed[Sample.json])
  }

  @Test("options not given read as nil and false; -- ends the options")
  func absent() throws {
    let parsed = try parse(["t", "a", "--host", "h", "--", "--json"])
    #expect(parsed[Sample.count] == nil)
    #expect(!parsed[Sample.json])
    #expect(parsed.positionals == ["t", "a", "--json"])
  }

  @Test(
    "bad arguments say what is wrong in one line",
    arguments: [
      (["t", "a", "--host", "h", "--verbose"], "unknown option '--verbose'"),
      (["t", "a", "--host"], "option '--host' needs a value"),
      (["t", "a", "--host", "h", "--json=yes"], "option '--json' takes no value"),
      (["t", "a"], "missing --host <command>"),
      (["t"], "missing <more>"),
      (["t", "a", "--host", "h", "--count", "-2"], "'--count' takes a whole number, not '-2'"),
    ])
  func refused(arguments: [String], expected: String) {
    #expect(message(arguments) == expected)
  }

  @Test("usage and help are laid out from the declarations")
  func layout() {
    #expect(
      Sample.usage
        == "USAGE: tca-replay sample <trace> <more>… [--count <n>] [-o <file>] --host <command> "
        + "[--json]")
    #expect(
      Sample.help == """
        OVERVIEW: Declares one of each kind of argument.

        \(Sample.usage)

        ARGUMENTS:
          <trace>               A trace file, as written by Reducer.recording(to:).
          <more>                More.

        OPTIONS:
          --count <n>           A count.
          -o, --output <file>   Where.
          --host <command>      A host.
          --json                JSON.
        """)
  }
}
