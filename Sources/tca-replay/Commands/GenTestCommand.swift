import Foundation
import Recorder

/// `tca-replay gen-test`: writes a trace as a `TestStore` regression test.
enum GenTestCommand: Command {
  static let name = "gen-test"
  static let abstract = "Write the trace as a TestStore regression test, in Swift."
  static let overview = """
    Write a trace as a TestStore regression test, in Swift, ready to commit.

    Each test function starts from the state the trace recorded before its first step, sends
    the recorded actions and asserts each recorded state change as mutations
    ($0.count = 1). Effects whose runs read only a clock (timers, debounces; the trace's
    effect records say what each read) run on a TestClock advanced as the recording's clock
    moved: what they send is received, and each is awaited where the recording saw it end.
    What other effects sent is fed in with receive(replaying:), with a comment saying why.
    Recorded uuid, date and random values go in through withDependencies, as sequences: a
    reducer that reads one more than the recording did fails that step. A redacted value gets
    a placeholder of its declared type, with a comment; the command line cannot run the
    reducer to check that it does not read it (TestGenerator.Options.redactionCheck can). A
    value of a type the trace does not describe cannot get one: its test is disabled, and says
    what to supply. A trace that ends in a crash gets a test that sends the crashing step
    again: it fails until the crash is fixed (Swift Testing sends it in a child process;
    under XCTest it crashes the test process).

    Values are written as Swift, never decoded where the trace says enough: a struct by its
    memberwise initializer, a stack by its ids, an alert by its builders. A reducer with
    stored properties other than @Dependency ones (Favoriting(favorite:)) is built by
    Feature.forGeneratedTests(), a factory you write once in the test target; a comment above
    the call says so, and the compiler names it until it exists.
    """
  static let positionals = [Positional.trace]
  static let framework = Option<TestGenerator.Framework>(
    "--framework", value: "<name>", help: "swift-testing (default) or xctest."
  ) { text, _ throws(UsageError) in
    guard let framework = TestGenerator.Framework(rawValue: text), framework != .plain else {
      throw UsageError(message: "unknown framework '\(text)': use swift-testing or xctest")
    }
    return framework
  }
  static let typeName = Option<String>(
    "--name", value: "<type>",
    help: "The suite or test case type (default: from the file name, counter.ndjson gives "
      + "CounterTraceTests)."
  ) { text, _ throws(UsageError) in
    guard SwiftValue.isPlainIdentifier(text) else {
      throw UsageError(message: "'\(text)' is not a Swift type name: use letters, digits and _")
    }
    return text
  }
  static let reducer = Option<String>(
    "--reducer", value: "<type>",
    help: "The reducer to test (default: the one that recorded the trace), a type name such "
      + "as App.Feature, built as App.Feature() (without it, a reducer with init parameters "
      + "is built by Feature.forGeneratedTests()).")
  static let modules = Option<[String]>(
    "--module", value: "<modules>",
    help: "Modules to import besides those of the trace's types, separated by commas; each an "
      + "identifier."
  ) { text, _ in text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
  static let steps = Option<ClosedRange<Int>>.stepRange(
    "--steps", value: "<a>...<b>", help: "Replay only steps a to b (also a..b, or a single step).")
  static let stepsPerTest = Option<Int>(
    "--steps-per-test", value: "<n>",
    help: "The most steps one test function replays (default: 100)."
  ) { text, name throws(UsageError) in
    guard let count = Int(text), count > 0 else {
      throw UsageError(message: "'\(name) \(text)' is not a positive number")
    }
    return count
  }
  static let output = Option<String>(
    "-o", "--output", value: "<file>",
    help: "Write the test there instead of to standard output (created 0600, as a trace is).")
  static let decodeActions = Flag(
    "--decode-actions",
    help: "Write actions as their recorded JSON, decoded: for a trace from an older build, "
      + "whose cases may be gone. The file compiles; a test fails at the first action that no "
      + "longer decodes.")
  static let options: [any CommandOption] = [
    framework, typeName, reducer, modules, steps, stepsPerTest, output, decodeActions,
  ]
  static let discussion = """
    EXIT CODES:
      0 success (left-out steps are warned about on standard error), 64 bad arguments or
      steps the trace does not have, 65 malformed trace, or one whose reducer or type names
      are not Swift type names (they would be pasted into the file as code), 66 missing trace,
      73 output file cannot be written.
    """

  static func run(_ arguments: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let options = generatorOptions(arguments)
    let test: GeneratedTest
    do {
      test = try TestGenerator(options: options).generate(tracePath: arguments.positionals[0])
    } catch {
      switch error.kind {
      case .missingTrace:
        context.errors.write("Error: \(error.message.escapingControlCharacters)\n")
        return .missingInput
      case .badTrace:
        context.errors.write("Error: \(error.message.escapingControlCharacters)\n")
        return .badData
      case .badOptions:
        throw UsageError(message: error.message)
      }
    }
    if let warning = test.warning { context.errors.write(warning + "\n") }
    // A run of steps left out for one reason is one warning, as it is one comment in the file.
    var runs: [(first: Int, last: Int, reason: String)] = []
    for step in test.skippedSteps {
      if let run = runs.last, run.last + 1 == step.index, run.reason == step.reason {
        runs[runs.count - 1].last = step.index
      } else {
        runs.append((step.index, step.index, step.reason))
      }
    }
    let tracePath = arguments.positionals[0]
    for run in runs {
      let reason = run.reason.escapingControlCharacters
      let steps =
        run.first == run.last
        ? "step \(run.first) is left out:"
        : "steps \(run.first)...\(run.last) are left out: for each,"
      context.warn("\(steps) \(reason)", file: tracePath)
    }
    for function in test.functions {
      let (first, last) = (function.steps.lowerBound, function.steps.upperBound)
      let steps = first == last ? "step \(first)" : "steps \(first)...\(last)"
      switch function.kind {
      case .steps: break
      case .needsValues:
        context.warn(
          "the test of \(steps) is disabled: it needs values the trace redacted, "
            + "which you must supply (its comments say which)", file: tracePath)
      case .crash:
        context.errors.write(
          "note: \(steps) crashed the reducer when recorded: its test sends it again, and "
            + "fails until the crash is fixed\n")
      }
    }
    guard let path = arguments[Self.output] else {
      context.output.write(test.source)
      return .success
    }
    do {
      try PrivateFile.write(test.source, to: path)
    } catch {
      context.errors.write("Error: cannot write \(path): \(whyUnwritable(path, error))\n")
      return .cannotCreate
    }
    return .success
  }

  /// The generator's options, as the command line gives them.
  static func generatorOptions(_ arguments: Arguments) -> TestGenerator.Options {
    var options = TestGenerator.Options()
    if let framework = arguments[Self.framework] { options.framework = framework }
    options.typeName = arguments[typeName]
    options.decodesActions = arguments[decodeActions]
    options.reducer = arguments[reducer]
    options.modules = arguments[modules] ?? []
    options.steps = arguments[steps]
    if let count = arguments[stepsPerTest] { options.stepsPerTest = count }
    return options
  }
}

/// Why `path` could not be written, in words rather than Foundation's error codes.
func whyUnwritable(_ path: String, _ error: any Error) -> String {
  var isDirectory: ObjCBool = false
  if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
    isDirectory.boolValue
  {
    return "it is a directory"
  }
  let folder = (path as NSString).deletingLastPathComponent
  if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
    return "the folder \(folder) does not exist"
  }
  return (error as? PrivateFile.Failure)?.description ?? error.localizedDescription
}
