/// Why a trace could not be turned into a test.
package struct TestGenerationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure this is; each maps to an exit code of the command-line tool.
  package enum Kind: Sendable, Equatable {
    /// The trace file does not exist or cannot be opened.
    case missingTrace
    /// The trace does not follow the format, or its patches do not rebuild its states.
    case badTrace
    /// The options ask for something the trace does not have, such as steps past its end.
    case badOptions
  }

  /// What kind of failure this is.
  package var kind: Kind
  /// The problem, in one line, naming the file (and line) where there is one.
  package var message: String

  /// Creates an error of `kind` saying `message`.
  package init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The message, as the command-line tool prints it after `Error: `.
  package var description: String { message }
}
