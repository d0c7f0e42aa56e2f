import Recorder
import TraceJSON

/// `tca-replay compare`: the first step where two traces differ. Needs no host.
enum CompareCommand: Command {
  static let name = "compare"
  static let abstract = "The first step where two traces differ, in action or in state."
  static let overview = """
    Read two traces step by step and report the first step where they differ: in
    the action, its origin, the dependency values read, or the state the step left (at JSON
    path granularity). Times and effect lifecycles are not compared; redacted values are
    unknown, not differences.
    """
  static let positionals = [
    Positional(
      name: "<a>",
      help: "Two trace files, e.g. the same session recorded before and after a change."),
    Positional(name: "<b>", help: ""),
  ]
  static let json = Flag("--json", help: "Print the comparison as JSON.")
  static let options: [any CommandOption] = [json]
  static let discussion = """
    EXIT CODES:
      0 the traces agree, 1 they differ, 64 bad arguments or traces of two different
      reducers (their state or action types differ), 65 malformed trace, 66 missing trace.
    """

  static func run(_ parsed: Arguments, _ context: CommandContext) throws -> ExitStatus {
    let output = context.output
    let errors = context.errors
    let (a, b) = (parsed.positionals[0], parsed.positionals[1])
    // Two apps' traces differ everywhere: one line says why, rather than every state member.
    if let mismatch = reducerMismatch(a, b) {
      errors.write("Error: \(mismatch.escapingControlCharacters)\n")
      return .usage
    }
    do {
      let comparison = try TraceComparison(parsed.positionals[0], parsed.positionals[1])
      if parsed[Self.json] {
        let json = (try? JSONValueEncoder().encode(comparison))?.jsonString ?? "{}"
        output.writeJSON(json + "\n")
      } else {
        let values = StateValueText(traceAt: parsed.positionals[0])
        output.write(comparison.description(values: values) + "\n")
        for warning in comparison.warnings ?? [] { errors.write(warning + "\n") }
      }
      return comparison.firstDifference == nil ? .success : .diverges
    } catch {
      let error = error.trace.firstInTrace()
      errors.write("Error: \(String(describing: error).escapingControlCharacters)\n")
      return error.kind == .missing ? .missingInput : .badData
    }
  }

  /// Why `a` and `b` cannot be compared step by step: they record different state or action
  /// types. `nil` when they record the same, or when a header cannot be read (the comparison
  /// then reports that as it reports any malformed trace).
  static func reducerMismatch(_ a: String, _ b: String) -> String? {
    guard let left = try? CheckedTraceReader(path: a).readHeader(),
      let right = try? CheckedTraceReader(path: b).readHeader(),
      left.stateType != right.stateType || left.actionType != right.actionType
    else { return nil }
    func describe(_ header: TraceHeader) -> String {
      "\(header.reducer) (\(header.stateType), \(header.actionType))"
    }
    return "\(a) and \(b) record different reducers, \(describe(left)) and \(describe(right)): "
      + "compare two recordings of the same reducer"
  }
}
