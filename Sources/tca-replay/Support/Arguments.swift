import Recorder
import TraceJSON

/// A command's arguments after parsing: positionals, options with values, and flags.
struct Arguments {
  var positionals: [String] = []
  var values: [String: String] = [:]
  var flags: Set<String> = []

  /// The value of `--name`, if given.
  func value(_ name: String) -> String? { values[name] }
  /// Whether `--name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }
}

/// An option a command accepts: a flag, or a name followed by a value.
struct OptionSpec {
  var name: String
  var takesValue: Bool

  static func flag(_ name: String) -> OptionSpec { OptionSpec(name: name, takesValue: false) }
  static func value(_ name: String) -> OptionSpec { OptionSpec(name: name, takesValue: true) }
}

/// Bad command-line arguments; the message is one line.
struct UsageError: Error {
  var message: String
}

extension Arguments {
  /// Parses `arguments` against `options`; `--name=value` and `--name value` both work, and `--`
  /// ends the options.
  init(parsing arguments: [String], options: [OptionSpec]) throws(UsageError) {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        positionals.append(contentsOf: remaining)
        break
      }
      // "-1" is a (bad) step, not an option: let the command say what is wrong with it.
      guard argument.hasPrefix("-"), argument.count > 1, Int(argument) == nil else {
        positionals.append(argument)
        continue
      }
      let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
      guard let spec = options.first(where: { $0.name == parts[0] }) else {
        throw UsageError(message: "unknown option '\(parts[0])'")
      }
      if spec.takesValue {
        guard let value = parts.count == 2 ? parts[1] : remaining.popFirst() else {
          throw UsageError(message: "option '\(spec.name)' needs a value")
        }
        values[spec.name] = value
      } else {
        guard parts.count == 1 else {
          throw UsageError(message: "option '\(spec.name)' takes no value")
        }
        flags.insert(spec.name)
      }
    }
  }

  /// Checks that exactly `names.count` positionals were given, naming the first one missing.
  func requirePositionals(_ names: [String]) throws(UsageError) {
    if positionals.count < names.count {
      throw UsageError(message: "missing \(names[positionals.count])")
    }
    if positionals.count > names.count {
      throw UsageError(message: "unexpected argument '\(positionals[names.count])'")
    }
  }
}

/// A step named on the command line: a number, `initial` (before the first step) or `last`.
enum StepReference {
  /// `nil` is the initial state.
  static func resolve(_ text: String, in trace: TraceIndex) throws(UsageError) -> Int? {
    let steps = trace.stepIndices
    switch text {
    case "initial", "start": return nil
    case "last", "end":
      guard let last = steps.last else { return nil }
      return last
    default:
      guard let index = Int(text) else {
        throw UsageError(message: "'\(text)' is not a step: use a number, 'initial' or 'last'")
      }
      guard steps.contains(index) else {
        let range =
          steps.isEmpty
          ? "the trace has no steps" : "steps are \(steps.lowerBound)…\(steps.upperBound - 1)"
        throw UsageError(message: "there is no step \(index): \(range)")
      }
      return index
    }
  }
}

/// Reads a state path argument such as `/todos/0/title` or `/todos[id=3]/title`.
///
/// The stepper passes its arguments unquoted, so a path in matching quotes (`''`, `"/a"`)
/// means what the shell would have made of it.
func parseStatePath(_ text: String) throws(UsageError) -> StatePath {
  var text = text
  if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
    text = String(text.dropFirst().dropLast())
  }
  guard let path = StatePath(text) else {
    let shown = text.count > 60 ? text.prefix(60) + "…" : Substring(text)
    throw UsageError(
      message: "'\(shown)' is not a state path: use '' (or nothing) for the whole state, "
        + "'/key/0/key', or '/todos[id=…]/key' to follow an element by its id"
    )
  }
  return path
}
