import Foundation
import Recorder

/// `tca-replay gen-test`: writes a trace as a `TestStore` regression test.
enum GenTestCommand {
  static let name = "gen-test"
  static let usage = """
    USAGE: tca-replay gen-test <trace> [--framework swift-testing|xctest] [--name <type>]
                               [--reducer <type>] [--module <module> ...] [--steps <a>...<b>]
                               [--steps-per-test <n>] [--output <file>]
    """
  static let help = """
    OVERVIEW: Write a trace as a TestStore regression test, in Swift, ready to commit.

    Each test function starts from the state the trace recorded before its first step, sends
    the recorded actions and asserts each recorded state change as mutations
    ($0.count = 1). Effects do not run: what they sent is fed in, in recorded order, with
    receive(replaying:). Recorded uuid, date and random values go in through withDependencies.

    \(usage)

    ARGUMENTS:
      <trace>                 A trace file, as written by Reducer.recording(to:).

    OPTIONS:
      --framework <name>      swift-testing (default) or xctest.
      --name <type>           The suite or test case type (default: from the file name,
                              counter.ndjson gives CounterTraceTests).
      --reducer <type>        The reducer to test (default: the one that recorded the trace).
      --module <module>       A module to import besides those of the trace's types; repeat
                              for more.
      --steps <a>...<b>       Replay only steps a to b (also a..b, or a single step).
      --steps-per-test <n>    The most steps one test function replays (default: 50).
      --output <file>         Write the test there instead of to standard output.

    EXIT CODES:
      0 success (left-out steps are warned about on standard error), 64 bad arguments or
      steps the trace does not have, 65 malformed trace, 66 missing trace, 73 output file
      cannot be written.
    """

  static func run(_ arguments: [String], output: StandardStream, errors: StandardStream)
    -> ExitStatus
  {
    if arguments.contains("-h") || arguments.contains("--help") {
      output.write(help + "\n")
      return .success
    }
    let parsed: (trace: String, options: TestGenerator.Options, output: String?)
    switch parse(arguments) {
    case .success(let value):
      parsed = value
    case .failure(let problem):
      errors.write("Error: \(problem.message)\n\(usage)\nSee 'tca-replay gen-test --help'.\n")
      return .usage
    }
    let test: GeneratedTest
    do {
      test = try TestGenerator(options: parsed.options).generate(tracePath: parsed.trace)
    } catch {
      errors.write("Error: \(error)\n")
      switch error.kind {
      case .missingTrace: return .missingInput
      case .badTrace: return .badData
      case .badOptions: return .usage
      }
    }
    for step in test.skippedSteps {
      errors.write("warning: step \(step.index) is left out: \(step.reason)\n")
    }
    guard let path = parsed.output else {
      output.write(test.source)
      return .success
    }
    do {
      try test.source.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      errors.write("Error: cannot write \(path): \(error.localizedDescription)\n")
      return .cannotCreate
    }
    return .success
  }

  struct Problem: Error {
    var message: String
  }

  static func parse(
    _ arguments: [String]
  ) -> Result<(trace: String, options: TestGenerator.Options, output: String?), Problem> {
    var options = TestGenerator.Options()
    var trace: String?
    var output: String?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      guard argument.hasPrefix("-") else {
        guard trace == nil else { return .failure(Problem(message: "expected one trace")) }
        trace = argument
        continue
      }
      guard let value = remaining.popFirst() else {
        return .failure(Problem(message: "missing value for '\(argument)'"))
      }
      switch argument {
      case "--framework":
        guard let framework = TestGenerator.Framework(rawValue: value), framework != .plain else {
          return .failure(
            Problem(message: "unknown framework '\(value)': use swift-testing or xctest")
          )
        }
        options.framework = framework
      case "--name":
        options.typeName = value
      case "--reducer":
        options.reducer = value
      case "--module":
        options.modules.append(value)
      case "--steps":
        guard let range = stepRange(value) else {
          return .failure(Problem(message: "'--steps \(value)' is not a range like 10...40"))
        }
        options.steps = range
      case "--steps-per-test":
        guard let count = Int(value), count > 0 else {
          return .failure(Problem(message: "'--steps-per-test \(value)' is not a positive number"))
        }
        options.stepsPerTest = count
      case "--output", "-o":
        output = value
      default:
        return .failure(Problem(message: "unknown option '\(argument)'"))
      }
    }
    guard let trace else { return .failure(Problem(message: "missing <trace>")) }
    return .success((trace, options, output))
  }

  /// `a...b`, `a..b` or a single step `a`.
  static func stepRange(_ text: String) -> ClosedRange<Int>? {
    for separator in ["...", ".."] {
      let parts = text.components(separatedBy: separator)
      if parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), 0 <= low, low <= high
      {
        return low...high
      }
    }
    if let step = Int(text), step >= 0 { return step...step }
    return nil
  }
}
