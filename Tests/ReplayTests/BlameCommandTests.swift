import Foundation
import Testing

/// `tca-replay blame` end to end: the built tool, the example host, traces recorded this run.
@Suite("Blame command")
struct BlameCommandTests {
  /// A host that greets with `hello` of `version` and answers its first request with `reply`.
  static func scriptedHost(version: Int, reply: String) throws -> String {
    let path = Paths.temporary("blame-host.sh")
    let hello =
      #"{"kind":"hello","protocol":\#(version),"tool":"tca-replay 0.1.0","reducers":[{"reducer":"TodosFeature","stateType":"Todos.TodosFeature.State","actionType":"Todos.TodosFeature.Action"}]}"#
    try """
    printf '%s\\n' '\(hello)'
    read -r request
    printf '%s\\n' '\(reply)'
    read -r bye
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return "sh \(path)"
  }

  @Test("names the element reducer's writing line, its Reduce and the forEach around it")
  func todos() async throws {
    // From the package's folder, where the example's sources are to read.
    let run = try await offPool {
      try Run(
        "tca-replay",
        [
          "blame", Paths.trace("todos.ndjson"), "1", "--host",
          Paths.executable("example-replay-host"),
        ], in: Paths.packageRoot.path)
    }
    #expect(run.status == 0, "\(run.errors)")
    let source = try String(
      contentsOfFile: Paths.packageRoot.appendingPathComponent("Examples/Todos/Todo.swift").path,
      encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let reduceLine = (lines.firstIndex { $0.contains("Reduce {") } ?? -1) + 1
    let writeLine = (lines.firstIndex { $0.contains("state.title = title") } ?? -1) + 1
    #expect(
      run.output.contains(
        "/title: \"\" → \"B\"   Todo.swift:\(writeLine) (in Reduce at :\(reduceLine)) ← "),
      "\(run.output)")
    #expect(run.output.contains("(forEach(\\.todos))"))
  }

  @Test("a step the trace does not have: one line, 64")
  func missingStep() async throws {
    let run = try await Run.tool(
      "blame", Paths.trace("todos.ndjson"), "100000", "--host",
      Paths.executable("example-replay-host"))
    #expect(run.status == 64)
    #expect(run.errors.split(separator: "\n").count == 1)
    #expect(run.errors.hasPrefix("Error: ") && run.errors.contains("no step 100000"))
  }

  @Test("a malformed trace: one line naming the file and line, 65")
  func malformedTrace() async throws {
    let path = try editedTrace("todos.ndjson") { $0[3] = "{\"kind\":\"step\",\u{1}garbage" }
    let run = try await Run.tool(
      "blame", path, "1", "--host", Paths.executable("example-replay-host"))
    #expect(run.status == 65)
    #expect(run.errors.split(separator: "\n").count == 1)
    #expect(run.errors.contains("\(path):4"))
  }

  @Test("a host whose blame answer is malformed: one line, 125", arguments: [
    #"{"kind":"blame","id":1,"blame":{"step":"one"}}"#,
    #"{"kind":"blame","id":1,"blame":{"step":1,"label":"x","changes":[{"path":"nope","writers":[]}],"effects":[]}}"#,
    #"{"kind":"blame","id":1,"blame":{"step":2,"label":"x","changes":[],"effects":[]}}"#,
    #"{"kind":"blame","id":1,"blame":{"step":1,"label":"x","changes":[{"path":"/a","writers":[[{"kind":"Reduce","file":"A.swift","line":-3}]]}],"effects":[]}}"#,
    #"{"kind":"blame","id":1}"#,
  ])
  func malformedReply(reply: String) async throws {
    let host = try Self.scriptedHost(version: 3, reply: reply)
    let run = try await Run.tool(
      "blame", Paths.trace("todos.ndjson"), "1", "--host", host, "--timeout", "5")
    #expect(run.status == 125)
    #expect(run.errors.split(separator: "\n").count == 1)
    #expect(run.errors.contains("does not speak the replay host protocol"))
  }

  @Test("a host of protocol 2 cannot blame: one line saying to rebuild it, 125")
  func olderHost() async throws {
    let host = try Self.scriptedHost(version: 2, reply: "")
    let run = try await Run.tool(
      "blame", Paths.trace("todos.ndjson"), "1", "--host", host, "--timeout", "5")
    #expect(run.status == 125)
    #expect(run.errors.split(separator: "\n").count == 1)
    #expect(run.errors.contains("cannot blame a step"))
  }

  @Test("the stepper blames the current step, with a path, and needs a host for it")
  func stepper() async throws {
    let run = try await offPool {
      try WhatIfTests.step(
        Paths.trace("todos.ndjson"), host: Paths.executable("example-replay-host"),
        ["goto 1", "blame /todos", "blame /nothing", "goto 9", "blame"])
    }
    let lines = run.output.split(separator: "\n").map(String.init)
    // `blame /todos` at step 1 names the element's write.
    #expect(lines.contains { $0.hasPrefix("~ /todos[id=") && $0.contains("/title:") && $0.contains("(forEach(\\.todos))") })
    // At step 9 the feature's own closure wrote `lastSavedAt`.
    #expect(lines.contains { $0.hasPrefix("+ /lastSavedAt: ") && $0.contains("TodosFeature.swift:") })
    // `blame /nothing` prints the step and no change.
    #expect(!lines.contains { $0.hasPrefix("~ /nothing") })
    let noHost = try await offPool {
      try Run("/bin/sh", ["-c", "printf 'goto 1\\nblame\\n' | \"$0\" step \"$1\"",
        Paths.executable("tca-replay"), Paths.trace("todos.ndjson")])
    }
    #expect(noHost.errors.contains("blame needs a replay host: start the stepper with --host"))
  }

  @Test("bisect --blame says, at the first divergence, that today's code no longer writes the path")
  func bisectBlame() async throws {
    let run = try await Run.tool(
      "bisect", Paths.trace("todos.ndjson"), "--host",
      "\(Paths.executable("mutant-replay-host")) saved-date-dropped", "--blame")
    #expect(run.status == 1)
    #expect(run.output.contains("  written by today's code (tca-replay blame):\n"))
    #expect(run.output.contains("    /lastSavedAt: today's code does not change it\n"))
    let plain = try await Run.tool(
      "bisect", Paths.trace("todos.ndjson"), "--host",
      "\(Paths.executable("mutant-replay-host")) saved-date-dropped")
    #expect(!plain.output.contains("written by today's code"))
  }
}
