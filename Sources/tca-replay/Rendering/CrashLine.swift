import Recorder

/// The one-line form of a crash record, shared by `log` and the stepper's `list`, in the
/// columns of ``stepLine(_:style:marker:)``: the step that never finished, when the crash
/// happened, the signal, the action.
///
///     17     0.412 s    crashed: SIGTRAP  .itemAdded(name: "x")  (did not finish)
func crashLine(_ crash: TraceCrash, style: Style, marker: String = "") -> String {
  let index = crash.step.map(String.init) ?? "-"
  var line = marker + pad(index, toWidth: 6, leading: true) + "  "
  line += pad(formatSeconds(crash.time), toWidth: 10)
  let signal = (crash.signal ?? "unknown signal").escapingControlCharacters
  line += style.paint("crashed: " + signal, .red)
  if crash.step != nil {
    line += "  " + (crash.label ?? "<unknown action>").escapingControlCharacters
    if !crash.finished { line += style.paint("  (did not finish)", .yellow) }
  } else {
    line += style.paint("  outside a recording reducer", .dim)
  }
  return line
}

/// The sentence for a crash: `ended in a crash: SIGTRAP at step 17 (.itemAdded), which did not
/// finish`.
func crashSentence(_ crash: TraceCrash) -> String {
  var text = "ended in a crash: " + (crash.signal ?? "unknown signal")
  if let step = crash.step {
    text += " at step \(step)"
    if let label = crash.label { text += " (\(label))" }
    if !crash.finished { text += ", which did not finish" }
  } else {
    text += " outside a recording reducer"
  }
  return text.escapingControlCharacters
}
