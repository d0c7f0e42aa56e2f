import Foundation
import Recorder

/// The built `tca-replay` on adversarial traces of 1 MB and 10 MB: patches of many
/// operations, labels and states full of control characters, error messages quoting them.
/// Each against `cat` of the same file, and the 10 MB file against the 1 MB one: linear work
/// is 10× (issue 26: at most 2 s per 10 MB, a 100,000-operation patch checked in 1 s).
func hostileInputBenchmarks(_ harness: Harness) -> [Table] {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let tool = folder.appendingPathComponent("tca-replay").path
  if !FileManager.default.isExecutableFile(atPath: tool) {
    print("warning: \(tool) is missing: `swift build -c release` first")
  }
  var tables: [Table] = []
  var table = Table(title: "Adversarial traces, as the built tool reads them, load " + loadAverage())
  for (name, make, commands) in hostileCases {
    for megabytes in [1, 10] {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("tca-replay-hostile-\(name.filter(\.isLetter))-\(megabytes).ndjson")
        .path
      try? make(megabytes << 20).write(toFile: path, atomically: true, encoding: .utf8)
      let cat = "\(name), \(megabytes) MB: cat"
      table.add(cat, harness.measure(operations: 1) { () } _: { _, _ in run(["/bin/cat", path]) })
      for command in commands {
        let row = "\(name), \(megabytes) MB: \(command.joined(separator: " "))"
        let arguments = [tool, command[0], path] + command.dropFirst()
        let baseline = megabytes == 10 ? "\(name), 1 MB: \(command.joined(separator: " "))" : cat
        table.add(row, harness.measure(operations: 1) { () } _: { _, _ in
          // Some of these traces are refused, as they should be: any status will do.
          _ = runToEnd(arguments)
        }, baseline: baseline)
      }
    }
  }
  tables.append(table)
  return tables
}

/// Each case: a name, the trace of about `bytes` bytes, and the commands run on it.
private var hostileCases: [(String, (Int) -> String, [[String]])] { [
  ("patches of 100,000 numbers", { bytes in
    steps(count: max(1, bytes / 4_000_000), each: { step in
      (0..<min(100_000, bytes / 40)).map { #"{"op":"add","path":"/a/-","value":\#(step + $0)}"# }
    })
  }, [["summary"], ["log"], ["log", "--json"], ["state", "last"], ["gen-test"]]),
  ("patches of 25,000 inserts at the front", { bytes in
    steps(count: max(1, bytes / 1_000_000), each: { step in
      [#"{"op":"add","path":"/b\#(step)","value":[]}"#]
        + (0..<25_000).map { #"{"op":"add","path":"/b\#(step)/0","value":\#($0)}"# }
    })
  }, [["summary"], ["log"]]),
  ("a label of ESC[2J", { bytes in
    steps(count: 1, each: { _ in [] }, label: String(repeating: #"\u001b[2J"#, count: bytes / 10))
  }, [["summary"], ["log"], ["show", "0"]]),
  ("a state string of ESC[2J", { bytes in
    steps(count: 1, each: { _ in
      [#"{"op":"add","path":"/s","value":""# + String(repeating: #"\u001b[2J"#, count: bytes / 10) + #""}"#]
    })
  }, [["summary"], ["state", "0"], ["show", "0"]]),
  ("a path of newlines in a patch that fails", { bytes in
    steps(count: 1, each: { _ in
      [#"{"op":"replace","path":"/"# + String(repeating: #"\n"#, count: bytes / 2) + #"","value":1}"#]
    })
  }, [["summary"], ["log"]]),
] }

/// A trace of `count` steps, step `n`'s patch being `each(n)`.
private func steps(count: Int, each: (Int) -> [String], label: String = ".x") -> String {
  var text =
    #"{"kind":"header","version":3,"tool":"bench","reducer":"R","stateType":"S","actionType":"A","#
    + #""fingerprint":{"state":"0000000000000000","action":"0000000000000000"},"#
    + #""started":"2026-01-01T00:00:00.000Z","keyframeInterval":0,"initialState":{"a":[]}}"#
    + "\n"
  for index in 0..<count {
    text += #"{"kind":"step","index":\#(index),"time":0.001,"origin":"send","action":{"x":{}},"#
      + #""label":""# + label + #"","patch":["# + each(index).joined(separator: ",") + "]}\n"
  }
  return text
}
