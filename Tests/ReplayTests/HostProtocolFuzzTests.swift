import Foundation
import Recorder
import TestSupport
import Testing
import TraceJSON

#if canImport(Glibc)
  import Glibc
#endif

/// The host protocol, fuzzed: a replay host that replays a recorded conversation with one fault
/// put in (``HostMutant``), run through `tca-replay verify` and `bisect` with `--timeout 1`.
///
/// Every run ends (its bound, one `--timeout` or the whole-request bound, is the host's: how
/// long a loaded machine takes to get there is not checked), is never killed by a signal, and
/// leaves no process of the host behind. It exits 0 or 1 only on a conversation that is still a valid
/// answer, with the verdict the answer gives; otherwise 125 and one line on standard error (or
/// the documented codes for a valid `error` answer). The host's own standard error goes to a
/// file, so every byte `tca-replay` prints is checked.
@Suite("Host protocol fuzz", .tags(.slow), .slowSuite)
struct HostProtocolFuzzTests {
  static let trace = "Traces/counter.ndjson"

  @Test(
    "a mutated conversation ends in time, with a verdict only on a valid answer, else one line",
    arguments: HostMutant.all
  )
  func mutant(_ recipe: HostMutantRecipe) async throws {
    let mutant = recipe.build()
    await RunSlots.shared.acquire()
    let outcome = await Result(catching: { try await Self.run(mutant) })
    await RunSlots.shared.release()
    let (run, host) = try outcome.get()
    defer { host.remove() }
    let label = "\(mutant.testDescription)\nstatus \(run.status), signal "
      + "\(run.signalled.map(String.init) ?? "none"), \(run.seconds) s\nstdout: \(run.output)\n"
      + "stderr: \(run.errors)"

    #expect(!run.hung, "still running after 300 s: \(label)")
    #expect(run.signalled == nil, "killed by a signal: \(label)")
    #expect(host.survivors() == [], "processes of the host still alive: \(label)")
    for crash in ["Fatal error", "Backtrace", "Stack dump", "Current stack trace", "💣"] {
      #expect(!run.errors.contains(crash), "a crash: \(label)")
    }

    let byeWarning =
      "warning: the replay host '\(host.command)' did not exit within 1 s of bye; stopped it\n"
    func expectCannotTest() {
      #expect(run.status == 125, "\(label)")
      #expect(run.output == "", "\(label)")
      #expect(run.errors.hasPrefix("Error: the replay host '\(host.command)' "), "\(label)")
      #expect(Self.isOneLine(run.errors), "not one line: \(label)")
    }
    func expectRecorded(status: Int32) async throws {
      let recorded = try await Baselines.shared.run(mutant)
      #expect(run.status == status, "\(label)")
      #expect(run.output == recorded.output, "\(label)")
      #expect(run.errors == "" || run.errors == byeWarning, "\(label)")
    }

    switch mutant.expectation {
    case .recorded:
      try await expectRecorded(status: mutant.conversation.status)
    case .cannotTest:
      expectCannotTest()
    case let .refused(problem):
      switch mutant.command {
      case .bisect:
        let status: Int32 = ["missingTrace": 66, "malformedTrace": 65][problem] ?? 125
        #expect(run.status == status, "\(label)")
        #expect(run.output == "", "\(label)")
        #expect(run.errors.hasPrefix("Error: "), "\(label)")
        #expect(Self.isOneLine(run.errors), "not one line: \(label)")
      case .verify:
        #expect(run.status == 125, "\(label)")
        #expect(run.errors == "" || run.errors == byeWarning, "\(label)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[0].hasPrefix("cannot test  "), "\(label)")
      }
    case .either:
      if run.status == 125 {
        expectCannotTest()
      } else {
        // A verdict: the answer as written must still be one, and say so.
        let report = try #require(Self.answer(in: mutant), "a verdict on no valid answer: \(label)")
        #expect(run.status == (report.divergentSteps == 0 ? 0 : 1), "\(label)")
        #expect(run.errors == "" || run.errors == byeWarning, "\(label)")
      }
    }
  }

  /// Runs `tca-replay` on the host that speaks `mutant`.
  static func run(_ mutant: HostMutant) async throws -> (HostileRun, HostileHost) {
    let host = try HostileHost(fuzzing: mutant)
    let run = try await HostileRun.tool(
      [
        mutant.command.rawValue, trace, "--host", host.command, "--timeout",
        "\(mutant.toolTimeout)",
      ], host: host
    )
    return (run, host)
  }

  /// Whether `text` is one line, ending in a newline.
  static func isOneLine(_ text: String) -> Bool {
    text.hasSuffix("\n") && text.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" }
  }

  /// The report a strict reader takes from what `mutant` wrote: a `hello` of version 1 first,
  /// then the first `report` or `error` (skipping other kinds and `progress` of request 1); `nil`
  /// if anything on the way is not the protocol.
  static func answer(in mutant: HostMutant) -> ReplayReport? {
    var lines = mutant.writtenLines
    guard lines.last == [] else { return nil }  // The last line broke off.
    lines.removeLast()
    func message(_ line: [UInt8]) -> JSONValue? {
      guard String(validating: line, as: UTF8.self) != nil,
        let value = try? JSONValue(parsing: line), case .object = value
      else { return nil }
      return value
    }
    guard let first = lines.first, let hello = message(first),
      hello["kind"] == "hello", hello["protocol"]?.int64Value == 1
    else { return nil }
    for line in lines.dropFirst() {
      guard let next = message(line) else { return nil }
      switch next["kind"]?.stringValue {
      case "progress":
        guard next["id"]?.int64Value == 1 else { return nil }
      case "report":
        guard next["id"]?.int64Value == 1, let json = next["report"] else { return nil }
        return try? JSONValueDecoder().decode(ReplayReport.self, from: json)
      case "error": return nil
      default: continue
      }
    }
    return nil
  }
}

extension HostileHost {
  /// A host behind a wrapper, as `HostileHost` is, that writes what `mutant` says: its
  /// standard error goes to a file in its folder, not to `tca-replay`'s.
  init(fuzzing mutant: HostMutant) throws {
    folder = Scratch.url("fuzzed-host")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    try Data(mutant.before).write(to: URL(fileURLWithPath: path("before")))
    try Data(mutant.after).write(to: URL(fileURLWithPath: path("after")))
    try """
    exec 2>> '\(path("stderr"))'
    echo $$ >> '\(path("pids"))'
    sh '\(path("host.sh"))'
    """.write(toFile: path("wrapper.sh"), atomically: true, encoding: .utf8)
    var script = [
      "echo $$ >> '\(path("pids"))'",
      "cat '\(path("before"))'",
    ]
    if mutant.readsRequest {
      script += ["read -r request", "cat '\(path("after"))'"]
    }
    if let custom = mutant.script {
      script.append(custom)
    } else {
      switch mutant.ending {
      case .bye: script.append("read -r bye; exit 0")
      case let .exit(status): script.append("exit \(status)")
      case let .signal(name): script.append("kill -s \(name) 0; read -r bye; exit 0")
      }
    }
    try (script.joined(separator: "\n") + "\n")
      .write(toFile: path("host.sh"), atomically: true, encoding: .utf8)
  }
}

/// The output of each recorded conversation, run unchanged: what a mutant that keeps the
/// conversation valid must print. Each is run once.
actor Baselines {
  static let shared = Baselines()
  private var runs: [String: Task<HostileRun, any Error>] = [:]

  func run(_ mutant: HostMutant) async throws -> HostileRun {
    let key = "\(mutant.command.rawValue) \(mutant.conversation.status)"
    if let running = runs[key] { return try await running.value }
    // Seeds 0 to 3: verify and bisect over the matching, then the diverging conversation.
    let seed = (mutant.command == .verify ? 0 : 1) + (mutant.conversation.status == 0 ? 0 : 2)
    let unchanged = HostMutantRecipe(
      seed: seed, name: "unchanged", expectation: .recorded, timeouts: 1, toolTimeout: 1,
      make: { _, _ in }
    ).build()
    let task = Task {
      let (run, host) = try await HostProtocolFuzzTests.run(unchanged)
      host.remove()
      return run
    }
    runs[key] = task
    return try await task.value
  }
}

/// A few runs at a time: each starts three processes, and a host waiting out its timeout on a
/// machine crowded by a hundred others could miss the deadline of a valid one.
actor RunSlots {
  static let shared = RunSlots(4)
  private var free: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(_ count: Int) { free = count }

  func acquire() async {
    if free > 0 {
      free -= 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      free += 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}

extension Result where Failure == any Error {
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}

/// The defects the host protocol fuzz found, each as the case that found it.
@Suite("Host protocol fuzz: what it found")
struct HostProtocolFuzzFindingsTests {
  /// Reports whose numbers contradict each other, from the diverging and matching conversation.
  static let contradictions: [(String, Bool)] = [
    ("a report counting divergent steps it does not detail", false),
    ("a report detailing a divergence it does not count", true),
    ("the report's divergentSteps is -1", true),
    ("the report's steps is -243", false),
    ("the report's unknown is -5", false),
  ]

  @Test(
    "a report that contradicts itself is no verdict: 125 and one line, from verify and bisect",
    arguments: contradictions, [HostMutant.Command.verify, .bisect]
  )
  func contradiction(_ found: (String, Bool), command: HostMutant.Command) async throws {
    let mutant = HostMutant.recipe(found.0).build(command: command, diverging: found.1)
    let (run, host) = try await HostProtocolFuzzTests.run(mutant)
    defer { host.remove() }
    #expect(run.status == 125, "\(run.output)")
    #expect(run.output == "")
    #expect(
      run.errors.hasPrefix(
        "Error: the replay host '\(host.command)' does not speak the replay host protocol: "
          + "expected a report whose counts agree"
      ),
      "\(run.errors)"
    )
    #expect(HostProtocolFuzzTests.isOneLine(run.errors), "\(run.errors)")
  }

  @Test(
    "a host's error message with a line break is shown on one line",
    arguments: [HostMutant.Command.verify, .bisect]
  )
  func errorMessageOnOneLine(_ command: HostMutant.Command) async throws {
    let mutant = HostMutant.recipe("an error whose message is a newline")
      .build(command: command, diverging: false)
    let (run, host) = try await HostProtocolFuzzTests.run(mutant)
    defer { host.remove() }
    #expect(run.status == 125)
    switch command {
    case .bisect:
      #expect(run.errors == "Error: two\\u{A}lines\n")
    case .verify:
      #expect(
        run.output == "cannot test  two\\u{A}lines\n1 trace: 0 ok, 0 diverge, 1 cannot be tested\n"
      )
    }
  }

  @Test("a host that reads its input to the end, as `tee log | host` does, leaves on bye")
  func hostReadingToTheEnd() async throws {
    // Ignores `bye` and leaves at the end of its input, like a pipeline's first command.
    var mutant = HostMutant.recipe("the recorded conversation").build()
    mutant.script = "cat > /dev/null; exit 0"
    let (run, host) = try await HostProtocolFuzzTests.run(mutant)
    defer { host.remove() }
    #expect(run.status == 0)
    #expect(run.errors == "", "tca-replay kept the host's input open after bye")
    #expect(host.survivors() == [])
  }

  @Test("a host starts with SIGPIPE at its default, though tca-replay ignores it")
  func hostStartsWithDefaultSIGPIPE() async throws {
    // With SIGPIPE ignored, `yes` complains of a broken pipe instead of leaving quietly, and a
    // program that does not check its writes may never leave.
    let host = try HostileHost(
      HostileHostTests.Case(
        name: "SIGPIPE",
        script: #"(yes | head -n 1) > /dev/null; printf '%s\n' "#
          + #"'{"kind":"error","id":1,"problem":"noReducer","message":"no"}'; read -r bye"#,
        message: ""
      )
    )
    defer { host.remove() }
    let run = try await HostileRun.tool(
      ["bisect", HostProtocolFuzzTests.trace, "--host", host.command, "--timeout", "5"],
      host: host
    )
    #expect(run.status == 125)
    #expect(run.errors == "Error: no\n")
  }
}
