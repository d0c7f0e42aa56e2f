/// An option without a value, such as `--json`: read as whether it was given.
struct Flag: CommandOption {
  let names: [String]
  let help: String
  var valueName: String? { nil }
  var isRequired: Bool { false }

  init(_ names: String..., help: String) {
    self.names = names
    self.help = help
  }

  func parse(_ text: String, name: String) throws(UsageError) -> any Sendable { true }
}
