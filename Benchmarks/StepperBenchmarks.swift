import Foundation

/// The built stepper on a trace whose state and label hold one long string (1 MB and 10 MB):
/// `watch` on it and a `find` glob of 16 stars, each against opening the trace and quitting at
/// the same step, in the same run (issue 36: 4.8 s and 2.7 s of CPU in a debug build before).
func stepperBenchmarks(_ harness: Harness) -> [Table] {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let tool = folder.appendingPathComponent("tca-replay").path
  var table = Table(title: "The stepper on a long string, load " + loadAverage())
  let stars = String(repeating: "*a*b", count: 8) + "*c"
  let inputs: [(name: String, input: String)] = [
    ("goto 3, quit", "goto 3\nq\n"),
    ("goto 3, watch /s", "goto 3\nwatch /s\nq\n"),
    ("goto 3, find (16 stars)", "goto 3\nrfind \(stars)\nq\n"),
  ]
  for megabytes in [1, 10] {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("tca-replay-stepper-\(megabytes).ndjson").path
    try? longStringTrace(bytes: megabytes << 20).write(
      toFile: path, atomically: true, encoding: .utf8)
    let script = FileManager.default.temporaryDirectory
      .appendingPathComponent("tca-replay-stepper-input").path
    for (name, input) in inputs {
      let row = "\(megabytes) MB: \(name)"
      let baseline = name == inputs[0].name ? nil : "\(megabytes) MB: \(inputs[0].name)"
      try? input.write(toFile: script, atomically: true, encoding: .utf8)
      let command = "'\(tool)' step '\(path)' < '\(script)'"
      table.add(row, harness.measure(operations: 1) { () } _: { _, _ in
        _ = runToEnd(["/bin/sh", "-c", command])
      }, baseline: baseline)
    }
  }
  return [table]
}

/// Steps 0 and 4 set `/s` to a string of about `bytes` bytes, their labels quoting it; steps
/// 1 to 3 change a counter.
private func longStringTrace(bytes: Int) -> String {
  let long = String(repeating: "ab", count: bytes / 2)
  let other = String(long.dropLast()) + "c"
  var text =
    #"{"kind":"header","version":4,"tool":"bench","reducer":"R","stateType":"S","actionType":"A","#
    + #""fingerprint":{"state":"0000000000000000","action":"0000000000000000"},"#
    + #""started":"2026-01-01T00:00:00.000Z","keyframeInterval":0,"#
    + #""types":{"S":{"struct":{"s":"Swift.String","n":"Swift.Int"}}},"#
    + #""initialState":{"s":"","n":0}}"# + "\n"
  func step(_ index: Int, label: String, patch: String) -> String {
    #"{"kind":"step","index":\#(index),"time":0.001,"origin":"send","action":{"x":{}},"#
      + #""label":""# + label + #"","patch":["# + patch + "]}\n"
  }
  text += step(0, label: #".pasted(\""# + long + #"\")"#,
    patch: #"{"op":"replace","path":"/s","value":""# + long + #""}"#)
  for index in 1...3 {
    text += step(index, label: ".tapped",
      patch: #"{"op":"replace","path":"/n","value":\#(index)}"#)
  }
  text += step(4, label: #".pasted(\""# + other + #"\")"#,
    patch: #"{"op":"replace","path":"/s","value":""# + other + #""}"#)
  return text
}
