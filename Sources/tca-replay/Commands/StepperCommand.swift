/// One of the stepper's commands, declared once: its names, what it takes, its help, and what it
/// does. The stepper's `help` and its dispatch are both made from ``Stepper/commands``.
///
/// ```swift
/// StepperCommand("list", short: "l", arguments: "[n]",
///                help: "List the n steps (default 10) around the current one.") {
///   try $0.list($0.count($1, default: 10))
/// }
/// ```
struct StepperCommand: Sendable {
  /// The name help shows: `reverse-continue`.
  let name: String
  /// The short name help shows beside it: `rc`.
  let short: String?
  /// Other spellings that work, which help does not show: `reverse-next`.
  let aliases: [String]
  /// What follows the name, as help shows it: `<step> <action>`.
  let arguments: String
  /// What it does, one paragraph; help wraps it.
  let help: String
  /// Runs it with the rest of the line, trimmed; `nil` when there is none.
  let perform: @Sendable (inout Stepper, _ argument: String?) throws -> Void

  init(
    _ name: String, short: String? = nil, aliases: [String] = [], arguments: String = "",
    help: String, perform: @escaping @Sendable (inout Stepper, _ argument: String?) throws -> Void
  ) {
    self.name = name
    self.short = short
    self.aliases = aliases
    self.arguments = arguments
    self.help = help
    self.perform = perform
  }

  /// Every spelling that runs it.
  var names: [String] { [name] + (short.map { [$0] } ?? []) + aliases }

  /// The column each command's help starts in.
  private static let helpColumn = 26

  /// `  rfind <pattern>     rf  Go to the previous step whose action matches.`, wrapped.
  var helpRow: String {
    let usage = arguments.isEmpty ? name : name + " " + arguments
    let lead = "  " + pad(pad(usage, toWidth: 20) + (short ?? ""), toWidth: Self.helpColumn - 2)
    let indent = String(repeating: " ", count: Self.helpColumn)
    let words = help.split(separator: " ").map(String.init)
    return Help.wrap(words, width: Help.width, first: lead, rest: indent)
  }

  /// The help of `commands`, one row each, in their order.
  static func help(_ commands: [StepperCommand]) -> String {
    commands.map(\.helpRow).joined(separator: "\n")
  }
}
