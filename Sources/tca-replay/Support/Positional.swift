/// A value a command takes by position, such as `<trace>`.
struct Positional: Sendable {
  /// How usage and help show it: `<trace>`.
  var name: String
  /// What it is; empty to share the help of the positional before it (`<from>, <to>`).
  var help: String
  /// Whether it may be given once or more; only the last positional may.
  var repeats = false

  /// A trace file, as nearly every command takes first.
  static let trace = Positional(
    name: "<trace>", help: "A trace file, as written by Reducer.recording(to:).")

  /// A step, as `state` and `diff` take it.
  static let step = Positional(
    name: "<step>", help: "A step number, 'initial' (before step 0) or 'last'.")
}
