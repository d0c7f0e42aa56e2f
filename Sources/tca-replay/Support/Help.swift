/// The usage line and `--help` text of a command, laid out from its declarations.
enum Help {
  /// The last column of generated lines, as far as the hand-wrapped prose around them goes.
  static let width = 92

  /// `USAGE: tca-replay log <trace> [--action <pattern>] …`, wrapped under its first argument.
  static func usage(_ command: any Command.Type) -> String {
    let positionals = command.positionals.map { $0.repeats ? $0.name + "…" : $0.name }
    let options = command.options.map { option in
      let spelling = ([option.names[0]] + [option.valueName].compactMap { $0 })
        .joined(separator: " ")
      return option.isRequired ? spelling : "[\(spelling)]"
    }
    let lead = "USAGE: tca-replay \(command.name) "
    return wrap(positionals + options, width: width, first: lead, rest: indent(lead.count))
  }

  /// The whole `--help`: overview, usage, arguments, options, then the command's discussion.
  static func text(_ command: any Command.Type) -> String {
    // A positional without help shares the row of the one before: `<from>, <to>`.
    var arguments: [(String, String)] = []
    for positional in command.positionals {
      if positional.help.isEmpty, let last = arguments.popLast() {
        arguments.append((last.0 + ", " + positional.name, last.1))
      } else {
        arguments.append((positional.name, positional.help))
      }
    }
    let rows =
      arguments
      + command.options.map { option in
        let names = option.names.joined(separator: ", ")
        return (option.valueName.map { names + " " + $0 } ?? names, option.help)
      }
    // The descriptions start in one column, three spaces past the longest name.
    let column = 2 + (rows.map(\.0.count).max() ?? 0) + 3
    func section(_ title: String, _ rows: ArraySlice<(String, String)>) -> [String] {
      guard !rows.isEmpty else { return [] }
      return [title + ":\n" + rows.map { row($0.0, $0.1, column: column) }.joined(separator: "\n")]
    }
    let count = arguments.count
    let sections =
      ["OVERVIEW: " + command.overview, usage(command)]
      + section("ARGUMENTS", rows[..<count]) + section("OPTIONS", rows[count...])
      + (command.discussion.isEmpty ? [] : [command.discussion])
    return sections.joined(separator: "\n\n")
  }

  /// `  --name <value>   What it does, …`, the description wrapped in `column`.
  private static func row(_ name: String, _ help: String, column: Int) -> String {
    let paragraphs = help.split(separator: "\n").map { paragraph in
      wrap(paragraph.split(separator: " ").map(String.init), width: width,
           first: indent(column), rest: indent(column))
    }
    let text = paragraphs.joined(separator: "\n")
    return "  " + name + text.dropFirst(2 + name.count)
  }

  /// `words` joined by spaces into lines of at most `width` columns where they fit.
  static func wrap(_ words: [String], width: Int, first: String, rest: String) -> String {
    var lines: [String] = []
    var line = first
    var lineIsEmpty = true
    for word in words {
      if !lineIsEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = rest
        lineIsEmpty = true
      }
      line += (lineIsEmpty ? "" : " ") + word
      lineIsEmpty = false
    }
    return (lines + [line]).joined(separator: "\n")
  }

  private static func indent(_ count: Int) -> String { String(repeating: " ", count: count) }
}
