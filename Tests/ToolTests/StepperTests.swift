import Foundation
import Testing

/// The interactive stepper driven through a pipe, as a script would drive it.
@Suite("tca-replay step")
struct StepperTests {
  typealias Runner = ToolRunner

  @Test("a scripted session prints what the golden file holds")
  func session() throws {
    let script = [
      "next", "n 3", "list 5", "action", "diff", "goto 99", "back", "b 2", "find .fact",
      "rfind .incr", "print", "p /count", "last", "watch /count", "reverse-continue", "rc",
      "first", "continue", "watch", "unwatch", "help", "quit",
    ]
    let result = try Runner.run(
      ["step", "Traces/counter.ndjson"], input: script.joined(separator: "\n") + "\n"
    )
    #expect(result.status == 0)
    #expect(result.errors == "")
    try Runner.expectGolden(result.output, "step-counter-session.txt")
  }

  @Test("reverse-continue from the end lands on the last step log --changed lists")
  func reverseContinueAgreesWithLog() throws {
    for (trace, path) in [
      ("todos.ndjson", "/todos/0/title"), ("composed-app.ndjson", "/counter/count"),
    ] {
      let session = try Runner.run(
        ["step", "Traces/\(trace)"], input: "last\nwatch \(path)\nrc\nrc\n"
      )
      #expect(session.status == 0)
      // "Watching /todos[id=…]/title: now …": the watch follows the element by id, so log
      // must be asked about the same path.
      let lines = session.output.split(separator: "\n")
      let watching = try #require(lines[3].split(separator: ":").first)
      let watched = String(watching.dropFirst("Watching ".count))
      let log = try Runner.run(["log", "Traces/\(trace)", "--changed", watched, "--json"]).output
      let changedSteps = log.split(separator: "\n").compactMap { line -> Int? in
        guard let start = line.range(of: "\"index\":") else { return nil }
        return Int(line[start.upperBound...].prefix { $0.isNumber })
      }
      try #require(changedSteps.count >= 3, "\(trace) changes \(watched) a few times")
      // "step 249/249  .label": the index before the slash.
      func index(_ line: Substring) -> Int? {
        Int(line.split(separator: " ")[1].prefix { $0.isNumber })
      }
      let lastIndex = try #require(index(session.output.split(separator: "\n")[2]))
      // The first rc looks before the last step; the second before that.
      let candidates = changedSteps.filter { $0 < lastIndex }
      let landed = session.output.split(separator: "\n").filter { $0.hasPrefix("step ") }
        .dropFirst()
      #expect(
        landed.map { index($0) } == Array(candidates.suffix(2).reversed()))
    }
  }

  @Test("a watched value changed deep inside, past its preview, shows the paths that changed")
  func watchDeepChange() throws {
    let result = try Runner.run(
      ["step", "Traces/bookshelf.ndjson"], input: "goto 30\nwatch /destination\ncontinue\n"
    )
    #expect(result.status == 0)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasSuffix("; this step changed something inside it.") })
    let at = try #require(lines.firstIndex(of: "Watch /destination changed inside:"))
    #expect(lines[at + 1] == #"  ~ /addBook/_0/isbn: "97801414" → "978014144""#)
  }

  @Test("print '' and print \"\" show the whole state, as a bare print does")
  func quotedEmptyPointer() throws {
    let result = try Runner.run(
      ["step", "Traces/counter.ndjson"],
      input: "goto 3\nprint\nprint ''\nprint \"\"\nprint '/count'\n"
    )
    #expect(result.status == 0)
    #expect(result.errors == "")
    let whole =
      "CounterFeature.State(count: 2, fact: nil, factError: nil, isLoading: false, "
      + "isTimerRunning: false)"
    #expect(result.output.hasSuffix("\(whole)\n\(whole)\n\(whole)\n2\n"), "\(result.output)")
  }

  @Test("watching twice says so, unwatch with no path says what it stopped; 'q now' quits")
  func unwatchAllAndQuit() throws {
    let result = try Runner.run(
      ["step", "Traces/counter.ndjson"],
      input: "watch /count\nwatch /count\nwatch /isLoading\nunwatch\nunwatch\nq now\nnext\n"
    )
    #expect(result.status == 0)
    #expect(result.errors == "")
    #expect(
      result.output.hasSuffix(
        """
        Watching /count: now 0.
        Already watching /count: now 0.
        Watching /isLoading: now false.
        Stopped watching /count, /isLoading.
        No watches.

        """), "\(result.output)")
  }

  @Test("a bad command is reported on standard error, the session goes on, and it exits 64")
  func badCommand() throws {
    let result = try Runner.run(
      ["step", "Traces/counter.ndjson"], input: "jump\ngoto 500\nwatch count\nc\nnext\n"
    )
    #expect(result.status == 64)
    #expect(
      result.errors == """
        Error: unknown command 'jump'. Type 'help' for the list.
        Error: there is no step 500: steps are 0…242
        Error: 'count' is not a state path: use '' (or nothing) for the whole state, '/key/0/key', \
        or '/todos[id=…]/key' to follow an element by its id
        Error: nothing is watched: use 'watch /path' first

        """
    )
    #expect(result.output.hasSuffix("step 0/242  .incrementButtonTapped  (send)\n"))
  }

  @Test("moving past either end says so and stays")
  func ends() throws {
    let result = try Runner.run(["step", "Traces/counter.ndjson"], input: "back\nlast\nnext\n")
    #expect(result.output.contains("Already at the initial state."))
    #expect(
      result.output.hasSuffix(
        "step 242/242  .resetButtonTapped  (send)\nAlready at the last step.\n"))
  }
}
