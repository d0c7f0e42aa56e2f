/// A type that `customDump` prints as one line of its own choosing.
///
/// Suits values with a simple, un-nested representation: identifiers, measurements, tokens.
///
/// ```swift
/// extension Todo.ID: CustomDumpStringConvertible {
///   var customDumpDescription: String { "Todo.ID(\(rawValue))" }
/// }
/// ```
package protocol CustomDumpStringConvertible {
  /// The text `customDump` prints for this value, in place of its reflected structure.
  var customDumpDescription: String { get }
}

/// A type that gives `customDump` the mirror to walk instead of the one reflection would build.
///
/// Use it to omit a field (a secret token, a cache) or to change how a value is laid out, by
/// choosing the mirror's children and display style.
package protocol CustomDumpReflectable {
  /// The mirror `customDump` walks for this value.
  var customDumpMirror: Mirror { get }
}

/// A type that `customDump` prints as another value, such as a wrapper printing its raw value.
package protocol CustomDumpRepresentable {
  /// The value `customDump` prints in place of this one.
  var customDumpValue: Any { get }
}
