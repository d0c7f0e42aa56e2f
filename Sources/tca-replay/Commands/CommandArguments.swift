/// A command line taken apart: positional arguments, flags, and options with values.
///
/// ```swift
/// let arguments = try CommandArguments(["t.ndjson", "--host", "x", "--json"],
///                                      options: ["--host"], flags: ["--json"])
/// arguments.positionals  // ["t.ndjson"]
/// ```
struct CommandArguments {
  var positionals: [String] = []
  var values: [String: String] = [:]
  var flags: Set<String> = []

  /// A problem with the command line, for `Error: …` and exit code 64.
  struct Problem: Error {
    var message: String
  }

  init(_ arguments: [String], options: Set<String>, flags: Set<String>) throws(Problem) {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        positionals += arguments[index...]
        break
      }
      // `--option=value` and `--option value` are both accepted.
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="),
        options.contains(String(argument[..<equals]))
      {
        values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
      } else if options.contains(argument) {
        guard index < arguments.count else {
          throw Problem(message: "missing value for '\(argument)'")
        }
        values[argument] = arguments[index]
        index += 1
      } else if flags.contains(argument) {
        self.flags.insert(argument)
      } else if argument.hasPrefix("-"), argument != "-" {
        throw Problem(message: "unknown option '\(argument)'")
      } else {
        positionals.append(argument)
      }
    }
  }

  /// The value of an option that must be a positive number of seconds.
  func seconds(_ option: String, default value: Double) throws(Problem) -> Duration {
    guard let text = values[option] else { return .milliseconds(Int64(value * 1000)) }
    guard let number = Double(text), number > 0 else {
      throw Problem(message: "'\(option)' takes a positive number of seconds, not '\(text)'")
    }
    return .milliseconds(Int64(number * 1000))
  }

  /// The value of an option that must be a non-negative integer.
  func count(_ option: String, default value: Int) throws(Problem) -> Int {
    guard let text = values[option] else { return value }
    guard let number = Int(text), number >= 0 else {
      throw Problem(message: "'\(option)' takes a whole number, not '\(text)'")
    }
    return number
  }
}

/// Prints a usage problem the way every command does, and returns the usage exit code.
func usageError(
  _ message: String, usage: String, command: String, errors: StandardStream
) -> ExitStatus {
  errors.write("Error: \(message)\n\(usage)\nSee 'tca-replay \(command) --help'.\n")
  return .usage
}
