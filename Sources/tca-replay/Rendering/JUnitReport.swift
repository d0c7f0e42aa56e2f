/// A JUnit XML report of `verify`: one `<testcase>` per trace, for CI servers to show.
///
/// Traces are hostile input: every text is escaped, and characters XML 1.0 forbids are dropped.
struct JUnitReport {
  /// One trace's result.
  struct Case {
    var trace: String
    var verdict: TraceVerifier.Verdict
    /// The line `verify` printed: the first divergence, or why it cannot be tested.
    var text: String
    var seconds: Double
  }

  var cases: [Case]

  /// The report's XML document.
  var xml: String {
    let failures = cases.filter { $0.verdict == .diverges }.count
    let errors = cases.filter { $0.verdict == .cannotTest }.count
    let total = cases.reduce(0) { $0 + $1.seconds }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="tca-replay verify" tests="\#(cases.count)" failures="\#(failures)" "#
        + #"errors="\#(errors)" time="\#(Self.time(total))">"#,
      #"  <testsuite name="tca-replay.verify" tests="\#(cases.count)" failures="\#(failures)" "#
        + #"errors="\#(errors)" time="\#(Self.time(total))">"#,
    ]
    for item in cases {
      let open =
        #"    <testcase name="\#(Self.escape(item.trace))" classname="tca-replay.verify" "#
        + #"time="\#(Self.time(item.seconds))""#
      switch item.verdict {
      case .matches:
        lines.append(open + "/>")
      case .diverges, .cannotTest:
        let tag = item.verdict == .diverges ? "failure" : "error"
        let message = Self.escape(item.text)
        lines.append(open + ">")
        lines.append(#"      <\#(tag) message="\#(message)">\#(message)</\#(tag)>"#)
        lines.append("    </testcase>")
      }
    }
    lines += ["  </testsuite>", "</testsuites>", ""]
    return lines.joined(separator: "\n")
  }

  private static func time(_ seconds: Double) -> String {
    let milliseconds = Int((max(seconds, 0) * 1000).rounded())
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  /// `text` as XML 1.0 attribute or element text: markup escaped, forbidden characters dropped.
  static func escape(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      // Kept as references so an attribute's value keeps them rather than normalizing them.
      case "\t": escaped += "&#9;"
      case "\n": escaped += "&#10;"
      case "\r": escaped += "&#13;"
      default:
        // XML 1.0's Char: no other control characters, no U+FFFE or U+FFFF.
        let value = scalar.value
        guard value >= 0x20, value != 0xFFFE, value != 0xFFFF else { continue }
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
