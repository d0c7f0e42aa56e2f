import Recorder
import TraceJSON

/// A command's arguments after parsing against its declarations: positionals and typed options.
///
/// ```swift
/// let json = arguments[Self.json]          // Bool
/// let path = arguments[Self.path] ?? .root  // StatePath?
/// ```
struct Arguments {
  var positionals: [String] = []
  private var values: [String: any Sendable] = [:]
  /// The keys of the options the command declares: reading any other is a mistake.
  private var declared: Set<String> = []

  /// The value given for `option`, if it was given.
  subscript<Value>(option: Option<Value>) -> Value? {
    assert(declared.contains(option.key), "\(option.key) is not in the command's options")
    return values[option.key] as? Value
  }

  /// The value of an option declared `required`, which the parser has checked was given.
  subscript<Value>(required option: Option<Value>) -> Value {
    guard option.isRequired, let value = self[option] else {
      preconditionFailure("\(option.key) is read as required but not declared required")
    }
    return value
  }

  /// Whether `option` was given, whatever its type.
  func contains(_ option: any CommandOption) -> Bool {
    assert(declared.contains(option.key), "\(option.key) is not in the command's options")
    return values[option.key] != nil
  }

  /// Whether `flag` was given.
  subscript(flag: Flag) -> Bool {
    assert(declared.contains(flag.key), "\(flag.key) is not in the command's options")
    return values[flag.key] != nil
  }
}

/// Bad command-line arguments; the message is one line.
struct UsageError: Error {
  var message: String
}

extension Arguments {
  /// Parses `arguments` as `command` declares them; `--name=value` and `--name value` both work,
  /// and `--` ends the options.
  init(parsing arguments: [String], for command: any Command.Type) throws(UsageError) {
    let options = command.options
    declared = Set(options.map(\.key))
    var texts: [String: (name: String, text: String)] = [:]
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
      guard let option = options.first(where: { $0.names.contains(parts[0]) }) else {
        throw UsageError(
          message: Suggestion.message(
            "unknown option '\(parts[0])'", for: parts[0], in: options.flatMap(\.names)))
      }
      if option.valueName != nil {
        guard let value = parts.count == 2 ? parts[1] : remaining.popFirst() else {
          throw UsageError(message: "option '\(parts[0])' needs a value")
        }
        texts[option.key] = (parts[0], value)
      } else {
        guard parts.count == 1 else {
          throw UsageError(message: "option '\(parts[0])' takes no value")
        }
        texts[option.key] = (parts[0], "")
      }
    }
    try checkPositionals(command.positionals)
    // In the order the command declares them, as its usage lists them.
    for option in options {
      if let given = texts[option.key] {
        values[option.key] = try option.parse(given.text, name: given.name)
      } else if option.isRequired {
        throw UsageError(message: "missing \(option.names[0]) \(option.valueName ?? "")")
      }
    }
  }

  /// Checks that the positionals match `declared`, naming the first one missing.
  private func checkPositionals(_ declared: [Positional]) throws(UsageError) {
    if positionals.count < declared.count {
      throw UsageError(message: "missing \(declared[positionals.count].name)")
    }
    if positionals.count > declared.count, declared.last?.repeats != true {
      throw UsageError(message: "unexpected argument '\(positionals[declared.count])'")
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
  guard let path = StatePath(reading: text) else {
    let shown = String(text.count > 60 ? text.prefix(60) + "…" : Substring(text))
      .escapingControlCharacters
    throw UsageError(
      message: "'\(shown)' is not a state path: use '' (or nothing) for the whole state, "
        + "'/key/0/key', or '/todos[id=…]/key' to follow an element by its id"
    )
  }
  return path
}
