/// What the parser and the help need from an option, whatever the type of its value.
protocol CommandOption: Sendable {
  /// Its spellings, the one usage shows first: `["-o", "--output"]`.
  var names: [String] { get }
  /// What follows it, as help shows it (`<file>`); `nil` for a flag, which takes no value.
  var valueName: String? { get }
  /// What it does, one paragraph per line; help wraps it to the column.
  var help: String { get }
  /// Whether a command cannot run without it.
  var isRequired: Bool { get }
  /// Reads the text given after `name`, one of `names`.
  func parse(_ text: String, name: String) throws(UsageError) -> any Sendable
}

extension CommandOption {
  /// The key the parser stores its value under.
  var key: String { names[0] }
}

/// An option followed by a value, read as a `Value`: `--context 5` as an `Int`.
///
/// ```swift
/// static let stepsBefore = Option<Int>.count(
///   "--context", value: "<n>", help: "How many steps before a divergence to list (default 5).")
/// let precedingSteps = arguments[stepsBefore] ?? 5
/// ```
struct Option<Value: Sendable>: CommandOption {
  let names: [String]
  let valueName: String?
  let help: String
  private(set) var isRequired: Bool
  private let read: @Sendable (_ text: String, _ name: String) throws(UsageError) -> Value

  /// An option spelt `names`, whose text `read` turns into a value or a usage error.
  init(
    _ names: String..., value: String, help: String, required: Bool = false,
    read: @escaping @Sendable (_ text: String, _ name: String) throws(UsageError) -> Value
  ) {
    self.names = names
    self.valueName = value
    self.help = help
    self.isRequired = required
    self.read = read
  }

  func parse(_ text: String, name: String) throws(UsageError) -> any Sendable {
    try read(text, name)
  }

  /// The same option, for a command that cannot run without it: one declaration serves
  /// commands that need it and commands that do not.
  var required: Self {
    var copy = self
    copy.isRequired = true
    return copy
  }
}

extension Option where Value == String {
  /// An option whose value is any text.
  init(_ names: String..., value: String, help: String, required: Bool = false) {
    self.names = names
    self.valueName = value
    self.help = help
    self.isRequired = required
    self.read = { text, _ in text }
  }
}
