import Architecture
import Foundation
import Recorder
import TestSupport
import Testing

/// Broken, truncated and hostile traces given to every reading command of the built binary:
/// each gets a clear error or warning naming the file and line, and nothing crashes.
@Suite("tca-replay on hostile input")
struct HostileInputTests {
  typealias Runner = ToolRunner

  static let directory: URL = {
    let url = Scratch.url("hostile")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  static func file(_ name: String, _ bytes: [UInt8]) -> String {
    let url = directory.appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
    return url.path
  }

  static let goodLines: [String] = {
    let text = try! String(
      contentsOf: Runner.packageRoot.appendingPathComponent("Traces/counter.ndjson"),
      encoding: .utf8
    )
    return text.split(separator: "\n").map(String.init)
  }()

  static func trace(_ lines: [String], trailingNewline: Bool = true) -> [UInt8] {
    Array((lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")).utf8)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: @Sendable () -> [UInt8]
    /// Exit code of `summary`, which checks every line.
    var status: Int32
    /// What standard error says, after the file's path.
    var message: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "empty file", bytes: { [] }, status: 65, message: ": the trace is empty"),
    Case(
      name: "a lone header", bytes: { trace([goodLines[0]]) }, status: 0, message: ""
    ),
    Case(
      name: "a truncated last line",
      bytes: { trace(Array(goodLines.prefix(10))) + Array(goodLines[10].utf8.prefix(30)) },
      status: 0,
      message: ":11: warning: the last line is incomplete (30 bytes)"
    ),
    Case(
      name: "binary garbage",
      bytes: { (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) } },
      status: 65, message: ":1: not valid JSON"
    ),
    Case(
      name: "an unknown version",
      bytes: {
        trace([
          goodLines[0].replacing(/"version":\d+/, with: #""version":99"#)
        ])
      },
      status: 65,
      message: ":1: unsupported trace format version 99; this build reads up to \(traceFormatVersion)"
    ),
    Case(
      name: "version 0",
      bytes: {
        trace([
          goodLines[0].replacing(/"version":\d+/, with: #""version":0"#)
        ])
      },
      status: 65,
      message: ":1: invalid trace format version 0: versions start at 1"
    ),
    Case(
      name: "blank lines at the end",
      bytes: { trace(Array(goodLines.prefix(10)) + ["", "  ", ""]) },
      status: 0, message: ""
    ),
    Case(
      name: "a blank line between records",
      bytes: { trace(Array(goodLines.prefix(5)) + [""] + Array(goodLines[5..<10])) },
      status: 65, message: ":6: the line is blank: blank lines may only end a trace"
    ),
    Case(
      name: "a step record first",
      // One that does not parse as a step either: it is named as not a header, not by its lack.
      bytes: { trace([#"{"kind":"step","index":0}"#] + Array(goodLines[2...3])) },
      status: 65, message: ":1: the first line is not a header record"
    ),
    Case(
      name: "duplicate step indices",
      bytes: { trace(Array(goodLines.prefix(4)) + [goodLines[3]]) },
      status: 65, message: ":5: the step index"
    ),
    Case(
      name: "a patch pointing at a missing path",
      bytes: {
        trace(
          Array(goodLines.prefix(3)) + [
            goodLines[3].replacingOccurrences(of: "/count", with: "/missing")
          ])
      },
      status: 65, message: ":4: the patch of step 2 does not apply"
    ),
    longLine(megabytes: 20),
  ]

  /// A step line of `megabytes` million bytes, a string that never closes: read, not refused.
  static func longLine(megabytes: Int) -> Case {
    Case(
      name: "a \(megabytes) MB single line",
      bytes: {
        var bytes = Array(goodLines[0].utf8) + [UInt8(ascii: "\n")]
        bytes += Array(#"{"kind":"step","index":0,"label":""#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: megabytes * 1_000_000)
        return bytes + [UInt8(ascii: "\n")]
      },
      status: 65, message: ":2: not valid JSON"
    )
  }

  @Test("summary reports each with a one-line error or warning, or reads it", arguments: cases)
  func summary(_ hostile: Case) throws {
    try Self.summary(hostile)
  }

  static func summary(_ hostile: Case) throws {
    let path = Self.file("summary-\(hostile.name).ndjson", hostile.bytes())
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try Runner.run(["summary", path])
    #expect(!result.crashed)
    #expect(result.status == hostile.status, "\(result.errors)")
    if hostile.message.isEmpty {
      #expect(result.errors == "")
    } else {
      #expect(result.errors.contains(path + hostile.message), "\(result.errors)")
      #expect(result.errors.split(separator: "\n").count == 1)
    }
  }

  @Test("state, show, log and the stepper never crash on it", arguments: cases)
  func otherCommands(_ hostile: Case) throws {
    try Self.otherCommands(hostile)
  }

  static func otherCommands(_ hostile: Case) throws {
    let path = Self.file("others-\(hostile.name).ndjson", hostile.bytes())
    defer { try? FileManager.default.removeItem(atPath: path) }
    for arguments in [
      ["state", path, "last"], ["show", path, "0"], ["log", path], ["step", path],
    ] {
      let result = try Runner.run(arguments, input: "last\nprint\nfirst\nc\nq\n")
      #expect(!result.crashed, "\(arguments[0])")
      #expect([0, 64, 65].contains(result.status), "\(arguments[0]): \(result.status)")
      if result.status == 65 {
        #expect(
          result.errors.contains(path + ":"), "\(arguments[0]) names the file: \(result.errors)")
      }
    }
  }

  @Test("gen-test and compare warn about an incomplete last line on standard error")
  func incompleteLastLine() throws {
    let path = Self.file(
      "cut.ndjson", Self.trace(Array(Self.goodLines.prefix(10))) + Array(Self.goodLines[10].utf8.prefix(30)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let warning = "\(path):11: warning: the last line is incomplete (30 bytes)"
    let genTest = try Runner.run(["gen-test", path])
    #expect(genTest.status == 0)
    #expect(genTest.errors.hasPrefix(warning), "\(genTest.errors)")
    let compare = try Runner.run(["compare", path, path])
    #expect(compare.status == 0)
    #expect(compare.errors.split(separator: "\n").count == 1)  // Once, though both are cut.
    #expect(compare.errors.hasPrefix(warning), "\(compare.errors)")
  }

  /// Stepper commands that move by the most a user can type, list, watch and go back.
  static let stepperScript =
    "goto 3\nnext 9223372036854775807\nlist 9223372036854775807\nback 9223372036854775807\n"
    + "last\nprint\nwatch /count\nrc\nc\nfirst\nfind .x\nq\n"

  @Test("mutated traces through every reading command: documented exits, one verdict, no hang")
  func mutations() throws {
    Self.mutations(count: 16)
  }

  /// Runs every reading command on `count` mutations of counter's first 130 lines.
  static func mutations(count: Int) {
    // Counter's first 130 lines: steps, effects and the keyframe after step 99.
    let original = trace(Array(goodLines.prefix(130)))
    let host = ToolRunner.executable.deletingLastPathComponent()
      .appendingPathComponent("example-replay-host").path
    var generator = SplitMix64(seed: 0x7CA_5EED)
    let mutants: [[UInt8]] = (0..<count).map { _ in
      var bytes = original
      mutate(&bytes, using: &generator)
      return bytes
    }
    let problems = Problems()
    // Four at a time: each run is a process, and most of its time is the process starting.
    DispatchQueue.concurrentPerform(iterations: 4) { lane in
      for round in stride(from: lane, to: mutants.count, by: 4) {
        let path = file("mutant-\(round).ndjson", mutants[round])
        defer { try? FileManager.default.removeItem(atPath: path) }
        for problem in check(path, round: round, host: round % 4 == 0 ? host : nil) {
          problems.append(problem)
        }
      }
    }
    for problem in problems.all { Issue.record(Comment(rawValue: problem)) }
  }

  /// Runs every reading command on the trace at `path`; what went wrong, if anything.
  static func check(_ path: String, round: Int, host: String?) -> [String] {
    var problems: [String] = []
    typealias Run = (arguments: [String], allowed: Set<Int32>, readsAll: Bool)
    var runs: [Run] = [
      (["summary", path], [0, 65], true), (["log", path], [0, 65], true),
      (["log", path, "--changed", "/count"], [0, 65], true),
      (["gen-test", path], [0, 64, 65], true), (["compare", path, path], [0, 65], false),
      (["state", path, "last", "--json"], [0, 64, 65], false),
      (["show", path, "last"], [0, 64, 65], false),
      (["diff", path, "initial", "last"], [0, 64, 65], false),
      (["step", path], [0, 64, 65], false),
    ]
    if let host {
      // Both replay every step, so both must find summary's problem. verify says it cannot
      // test a malformed trace (125, on standard output); bisect says it is bad data (65).
      runs.append((["bisect", path, "--host", host], [0, 1, 65], true))
      runs.append((["verify", path, "--host", host], [0, 1, 125], true))
    }
    var verdict: String?
    for run in runs {
      let name = "round \(round): \(run.arguments.filter { $0 != path }.joined(separator: " "))"
      // A bound for a hang, not for speed: a loaded machine may take long over a run.
      guard let result = try? BoundedRun(run.arguments, input: stepperScript, seconds: 300) else {
        problems.append("\(name): could not run")
        continue
      }
      if result.timedOut { problems.append("\(name): still running after 300 s"); continue }
      if result.crashed { problems.append("\(name): ended by a signal"); continue }
      guard run.allowed.contains(result.status) else {
        problems.append("\(name): exit \(result.status): \(result.errors.prefix(300))")
        continue
      }
      let isVerify = run.arguments[0] == "verify"
      let badData: Int32 = isVerify ? 125 : 65
      // Every error about the trace names it, and its line when the problem is on one. (Exit
      // 64 is gen-test's "no steps to replay": about the request, not the file.)
      let traceErrors =
        result.status != badData
        ? []
        : isVerify
          ? result.output.split(separator: "\n").filter { $0.hasPrefix("cannot test  \(path)") }
            .map { "Error: " + $0.dropFirst("cannot test  ".count) }
          : result.errors.split(separator: "\n").filter { $0.hasPrefix("Error: \(path)") }
      for error in traceErrors {
        let rest = error.dropFirst("Error: \(path)".count)
        let wholeFile = rest == ": the trace is empty"
          || rest == ": the trace has no complete line: it does not end in a newline"
        if !wholeFile, rest.wholeMatch(of: #/:\d+: .+/#) == nil {
          problems.append("\(name): names no line: \(error)")
        }
      }
      if result.status == badData, traceErrors.isEmpty {
        problems.append(
          "\(name): exit \(badData) without naming the file: \(result.errors.prefix(300))")
      }
      // One verdict: summary's first error is every command's.
      if run.arguments[0] == "summary" {
        verdict = result.status == 65 ? String(traceErrors.first ?? "") : nil
        continue
      }
      // gen-test alone refuses a well-formed type name that is no Swift name: it would paste it
      // into code. summary rightly reads such a trace.
      if run.arguments[0] == "gen-test", verdict == nil,
        traceErrors.count == 1, traceErrors[0].contains(" is not a Swift type name; ")
      {
        continue
      }
      if let verdict, run.readsAll, result.status != badData {
        problems.append("\(name): exit \(result.status) where summary says \(verdict)")
      }
      for error in traceErrors where error != verdict ?? "" {
        problems.append("\(name): \(error), where summary says \(verdict ?? "nothing")")
      }
    }
    return problems
  }
}

/// Problems found by the mutation lanes, gathered across threads.
final class Problems: @unchecked Sendable {
  private let lock = NSLock()
  private var problems: [String] = []
  func append(_ problem: String) { lock.withLock { problems.append(problem) } }
  var all: [String] { lock.withLock { problems } }
}

/// A run of the built `tca-replay` that is killed if it takes longer than it may.
struct BoundedRun {
  var status: Int32 = 0
  var output = ""
  var errors = ""
  var crashed = false
  var timedOut = false

  init(_ arguments: [String], input: String, seconds: Int) throws {
    let child = try ChildProcess.run(
      ToolRunner.executable.path, arguments, directory: ToolRunner.packageRoot.path,
      input: Data(input.utf8), timeLimit: Double(seconds)
    )
    timedOut = child.timedOut
    status = child.signal ?? child.status
    crashed = child.signal != nil && !timedOut
    errors = String(decoding: child.errors, as: UTF8.self)
    output = String(decoding: child.output, as: UTF8.self)
  }
}

/// Flips, deletes, duplicates or truncates a few bytes.
func mutate(_ bytes: inout [UInt8], using generator: inout SplitMix64) {
  for _ in 0...Int(generator.next() % 3) {
    guard !bytes.isEmpty else { return }
    let position = Int(generator.next() % UInt64(bytes.count))
    switch generator.next() % 5 {
    case 0: bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (generator.next() % 8))
    case 1: bytes.remove(at: position)
    case 2: bytes.insert(bytes[position], at: position)
    case 3: bytes.removeSubrange(position...)
    default:
      let interesting: [UInt8] = Array(#"{}[]",:0-9"\n"#.utf8)
      bytes[position] = interesting[Int(generator.next() % UInt64(interesting.count))]
    }
  }
}

/// The mutated traces at full length: 150 of them, each through every reading command; and a
/// line of 200 MB, near the 256 MiB limit, which each command reads whole.
@Suite("tca-replay on hostile input, 150 mutated traces", .tags(.slow), .slowSuite)
struct HostileInputSlowTests {
  @Test("mutated traces through every reading command: documented exits, one verdict, no hang")
  func mutations() {
    HostileInputTests.mutations(count: 150)
  }

  @Test("summary, state, show, log and the stepper read a 200 MB line and refuse it in one line")
  func longLine() throws {
    let hostile = HostileInputTests.longLine(megabytes: 200)
    try HostileInputTests.summary(hostile)
    try HostileInputTests.otherCommands(hostile)
  }
}
