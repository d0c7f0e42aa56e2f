import Recorder

/// The one-line form of a step shared by `log` and the stepper's `list`:
/// index, time, origin, action label.
func stepLine(_ step: TraceStep, style: Style, marker: String = "") -> String {
  stepLine(ScannedStep(step), style: style, marker: marker)
}

/// A step's line, from what a full scan reads of it.
func stepLine(_ step: ScannedStep, style: Style, marker: String = "") -> String {
  let index = String(step.index)
  let time = formatSeconds(step.time)
  let origin = originText(step.origin)
  var line = marker + pad(index, toWidth: 6, leading: true) + "  " + pad(time, toWidth: 10)
  // The label is the trace's text: a line break in it must not start a line of its own.
  line += style.paint(pad(origin, toWidth: 13), .dim) + " "
  line += step.label.escapingControlCharacters
  if !step.isReplayable { line += style.paint("  (not replayable)", .yellow) }
  return line
}

/// `send`, or `effect ← 4` for an action an effect of step 4 sent.
func originText(_ origin: TraceStep.Origin) -> String {
  switch origin {
  case .send: "send"
  case .effect(let cause): "effect ← \(cause.map(String.init) ?? "?")"
  }
}

/// Seconds rounded to milliseconds, always with three decimals (`1.250 s`, `0.000 s`), so that
/// times line up in lists and a time under a millisecond does not read as `0.0 s`.
func formatSeconds(_ seconds: Double) -> String {
  let milliseconds = (seconds * 1000).rounded()
  // A hand-edited trace may hold any number; only whole milliseconds that fit are spelled out.
  guard milliseconds.magnitude < 1e15 else { return "\(seconds) s" }
  let whole = Int(milliseconds.magnitude)
  let fraction = String(whole % 1000)
  let sign = milliseconds < 0 ? "-" : ""
  return "\(sign)\(whole / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
}

func pad(_ text: String, toWidth width: Int, leading: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return leading ? padding + text : text + padding
}

/// Matches action labels: a glob when the pattern has `*` or `?`, otherwise a substring.
struct LabelPattern: Sendable {
  let text: String
  private let isGlob: Bool
  /// The pattern's bytes when all are printable ASCII, where a byte is a character: `log`
  /// matches a million labels without making arrays of characters.
  private let asciiText: [UInt8]?

  init(text: String) {
    self.text = text
    isGlob = text.contains("*") || text.contains("?")
    asciiText = text.utf8.allSatisfy { (0x20...0x7E).contains($0) } ? Array(text.utf8) : nil
  }

  func matches(_ label: String) -> Bool {
    var steps = 0
    return matches(label, steps: &steps)
  }

  /// ``matches(_:)``, counting in `steps` the elements ``Glob`` compared.
  func matches(_ label: String, steps: inout Int) -> Bool {
    guard isGlob else { return label.contains(text) }
    if let asciiText {
      var label = label
      let matched: Bool? = label.withUTF8 { bytes in
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return asciiText.withUnsafeBufferPointer { Glob.matches($0, bytes, steps: &steps) }
      }
      if let matched { return matched }
    }
    return Glob.matches(Array(text), Array(label), any: "*", one: "?", steps: &steps)
  }
}
