import Foundation
import Testing

/// Issue 36's chat room, recorded in this run: every output that shows its bindings, alerts,
/// stack entries and dates shows them in the tool's Swift form, never their recorded JSON.
@Suite("The chat room's values print in Swift form in every output")
struct ChatRoomPrintedFormTests {
  static let mutants = Paths.executable("mutant-replay-host")

  /// The first step whose label starts with `prefix`, from the trace's step records.
  static func step(_ labels: [String], _ prefix: String) throws -> String {
    String(try #require(labels.firstIndex { $0.hasPrefix(prefix) }, "no \(prefix) step"))
  }

  /// The JSON forms these outputs printed before: a binding's, an alert's and a stack entry's.
  static func expectNoJSON(_ output: String, _ command: String) {
    for raw in [#"["set":"#, #"["keyPath":"#, #"["title":"#, ".Entry(id:", "StackState<"] {
      #expect(!output.contains(raw), "\(command) prints \(raw): \(output)")
    }
  }

  @Test("show prints a binding action, an alert and a pushed stack entry as Swift")
  func show() async throws {
    let trace = try await ShrinkTrustTests.Shrinks.shared.recording("chat-room", steps: 0)
    let labels = try WhatIfTests.labels(trace)
    for (prefix, expected) in [
      (#".binding(.set(\.$draft, "#, #"action  .binding(.set(\.$draft, "#),
      (".deleteButtonTapped(", #"/alert: nil → AlertState(title: "Delete this message?""#),
      (".threadTapped(", "+ /path/0: [#0: ChatThread.State(draft: \"\""),
    ] {
      let run = try await Run.tool("show", trace, try Self.step(labels, prefix))
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.output.contains(expected), "\(run.output)")
      Self.expectNoJSON(run.output, "show")
    }
  }

  @Test("the stepper's action and an edit's report print the binding as Swift, as typed")
  func stepper() async throws {
    let trace = try await ShrinkTrustTests.Shrinks.shared.recording("chat-room", steps: 0)
    let binding = try Self.step(try WhatIfTests.labels(trace), #".binding(.set(\.$draft, "#)
    let run = try WhatIfTests.step(
      trace, host: Self.mutants + " chat-room-unchanged",
      ["goto \(binding)", "action", #"edit \#(binding) .binding(.set(\.$draft, "hi"))"#])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.contains(#"action  .binding(.set(\.$draft, ""#), "\(run.output)")
    #expect(
      run.output.contains(#"the new action .binding(.set(\.$draft, "hi"))"#), "\(run.output)")
    #expect(run.output.contains(#"/draft  recorded "ok", now "hi""#), "\(run.output)")
    Self.expectNoJSON(run.output, "step")
  }

  @Test("bisect and compare print a typing date in ISO 8601, not as seconds since 2001")
  func dates() async throws {
    let trace = try await ShrinkTrustTests.Shrinks.shared.recording("chat-room", steps: 0)
    let edited = Paths.temporary("chat-room-edited.ndjson")
    defer { try? FileManager.default.removeItem(atPath: edited) }
    // Typing that never expires keeps a name in `typingUsers: [String: Date]`.
    let bisect = try await Run.tool(
      "bisect", trace, "--host", Self.mutants + " chat-room-keeping-typists")
    #expect(bisect.status == 1, "\(bisect.errors)")
    #expect(bisect.output.contains("/typingUsers/"), "\(bisect.output)")
    #expect(bisect.output.contains("+ 2027-01-15T08:00:"), "\(bisect.output)")
    // The same day as seconds since 2001 (821,692,800), as the JSON holds it.
    #expect(!bisect.output.contains("+ 82169"), "\(bisect.output)")
    // Another typist at the first peer's typing: a history that differs in a date.
    let peer = try Self.step(try WhatIfTests.labels(trace), #".peerTyping("chen")"#)
    let save = try WhatIfTests.step(
      trace, host: Self.mutants + " chat-room-unchanged",
      [#"edit \#(peer) .peerTyping("dana")"#, "save \(edited)"])
    #expect(save.status == 0, "\(save.errors)")
    let compare = try await Run.tool("compare", trace, edited)
    #expect(compare.status == 1, "\(compare.errors)")
    let dana = "/typingUsers/dana\n      − (absent)\n      + 2027-01-15T08:00:"
    #expect(compare.output.contains(dana), "\(compare.output)")
    #expect(!compare.output.contains("82169"), "\(compare.output)")
    Self.expectNoJSON(bisect.output + compare.output, "bisect and compare")
  }
}
