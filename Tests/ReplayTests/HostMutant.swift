import Foundation
import ReplayMutants
import Testing

/// A recorded host conversation with one fault put in: what a fuzzed replay host writes, and
/// what `tca-replay` must make of it.
///
/// The host writes `before`, reads the request (unless `before` already broke off), writes
/// `after`, then ends as `ending` says. Every mutant is built from its `seed` alone, so a failing
/// case is rebuilt by its number: `HostMutant.all[seed].build()`.
struct HostMutant: Sendable, CustomTestStringConvertible {
  /// The command run: `verify` or `bisect`.
  enum Command: String, Sendable { case verify, bisect }

  /// How the host ends once it has written everything.
  enum Ending: Sendable, Equatable {
    /// Reads `bye` (or the end of its input), then exits 0: a host that waits when its answer
    /// is incomplete.
    case bye
    /// Exits with this status straight away.
    case exit(Int)
    /// Sends this signal to its whole process group (`kill -s NAME 0`); a signal whose default
    /// is to do nothing lets it go on to read `bye`.
    case signal(String)
  }

  /// What `tca-replay` must do.
  enum Expectation: Sendable, Equatable {
    /// Still a valid, correct answer: the recorded verdict, output and exit status.
    case recorded
    /// A valid `error` answer with this `problem`: bisect exits 66, 65 or 125, verify 125.
    case refused(problem: String)
    /// Not the protocol: exit 125 and one line saying what the host did.
    case cannotTest
    /// A fault the protocol leaves room for (a flipped byte inside a string, `1.0` for `1`):
    /// either a verdict on an answer that still parses as one, or 125.
    case either
  }

  var seed: Int
  var name: String
  var command: Command
  var conversation: HostConversation
  var before: [UInt8]
  var readsRequest = true
  var after: [UInt8]
  var ending: Ending = .bye
  /// Shell commands the host runs instead of writing `after` and ending.
  var script: String?
  var expectation: Expectation
  /// The most the run may take, in `--timeout`s, before the margin: the whole-request bound for
  /// a host that keeps counting progress up, one timeout otherwise.
  var timeouts = 1.0
  /// The `--timeout` the tool runs with, in seconds: longer for hosts that write tens of MiB,
  /// which a loaded machine may take more than a second to pass through a pipe.
  var toolTimeout = 1

  var testDescription: String { "#\(seed) \(command.rawValue): \(name)" }

  /// The answer line as written, without its newline, when the answer is the last line: what a
  /// verdict must have been read from.
  var writtenLines: [[UInt8]] {
    (before + after).split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
  }
}

/// How to build one mutant, cheaply kept until its test runs: some mutants hold tens of MiB.
struct HostMutantRecipe: Sendable, CustomTestStringConvertible {
  var seed: Int
  var name: String
  var expectation: HostMutant.Expectation
  var timeouts: Double
  var toolTimeout: Int
  var make: @Sendable (inout Draft, inout SplitMix) -> Void

  var command: HostMutant.Command { seed % 2 == 0 ? .verify : .bisect }
  var testDescription: String { "#\(seed) \(command.rawValue): \(name)" }

  /// The mutant: the recorded conversation for its command (matching for half the seeds,
  /// diverging for the other half), changed by `make`.
  func build() -> HostMutant {
    build(command: command, diverging: (seed / 2) % 2 == 1)
  }

  /// The mutant for `command`, from the matching or the diverging conversation.
  func build(command: HostMutant.Command, diverging: Bool) -> HostMutant {
    var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9 &+ 16)
    let conversation: HostConversation =
      !diverging ? .matches : (command == .verify ? .verifyDiverges : .bisectDiverges)
    var draft = Draft(hello: conversation.hello, answer: conversation.answer)
    make(&draft, &random)
    return HostMutant(
      seed: seed, name: name + draft.detail, command: command, conversation: conversation,
      before: draft.before, readsRequest: draft.readsRequest, after: draft.after,
      ending: draft.ending, script: draft.script, expectation: draft.expectation ?? expectation,
      timeouts: timeouts, toolTimeout: toolTimeout
    )
  }
}

extension HostMutant {
  /// The recipe named `name`: how a regression test names the case the fuzz found.
  static func recipe(_ name: String) -> HostMutantRecipe {
    all.first { $0.name == name }!
  }

  /// Every mutant, by seed: about 190, most of them over in a few milliseconds.
  static let all: [HostMutantRecipe] = {
    var built: [HostMutantRecipe] = []
    func add(
      _ name: String, expect: Expectation, timeouts: Double = 1, toolTimeout: Int = 1,
      _ make: @escaping @Sendable (inout Draft, inout SplitMix) -> Void
    ) {
      built.append(
        HostMutantRecipe(
          seed: built.count, name: name, expectation: expect, timeouts: timeouts,
          toolTimeout: toolTimeout, make: make
        )
      )
    }

    add("the recorded conversation", expect: .recorded) { _, _ in }

    // Truncated lines: cut anywhere in the hello or the answer, then wait, exit or end the line.
    for index in 0..<12 {
      add("a truncated line", expect: .cannotTest) { draft, random in
        draft.cut(at: random.below(draft.totalBytes - 1), random: &random)
        switch index % 3 {
        case 0: draft.ending = .bye
        case 1: draft.ending = .exit(0)
        default:
          draft.append([10])
          draft.detail += ", then a newline"
        }
      }
    }

    // Bytes flipped anywhere.
    for _ in 0..<24 {
      add("a flipped byte", expect: .either) { draft, random in
        let line = random.below(2)
        var bytes = Array((line == 0 ? draft.hello : draft.answer).utf8)
        let position = random.below(bytes.count)
        let mask = UInt8(1 + random.below(255))
        bytes[position] ^= mask
        draft.setLine(line, bytes)
        draft.detail = ": line \(line + 1), byte \(position) ^ \(mask)"
      }
    }

    // Request ids that are not 1.
    let badIDs = [
      "0", "-1", "3", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
      "18446744073709551616", "1e400", "-1e400", "1.5", #""1""#, "null", "true", "[1]", "{}",
    ]
    for id in badIDs {
      add("the answer's id is \(id)", expect: .cannotTest) { draft, _ in
        draft.answer = draft.answer.replacingFirst(#""id":1,"#, with: #""id":\#(id),"#)
      }
    }
    for id in ["1.0", "1e0", "10e-1"] {
      add("the answer's id is \(id)", expect: .either) { draft, _ in
        draft.answer = draft.answer.replacingFirst(#""id":1,"#, with: #""id":\#(id),"#)
      }
    }

    // Protocol versions that do not exist, or are not numbers.
    let badVersions = [
      "0", "-1", "4", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
      "1e400", "-1e400", "1.5", #""1""#, "null", "[1]",
    ]
    for version in badVersions {
      add("protocol version \(version)", expect: .cannotTest) { draft, _ in
        draft.hello = draft.hello.replacingFirst(#""protocol":1,"#, with: #""protocol":\#(version),"#)
      }
    }
    add("protocol version 1.0", expect: .either) { draft, _ in
      draft.hello = draft.hello.replacingFirst(#""protocol":1,"#, with: #""protocol":1.0,"#)
    }

    // Duplicated and reordered messages.
    add("the hello twice, before the request", expect: .recorded) { draft, _ in
      draft.before += Array(draft.hello.utf8) + [10]
    }
    add("the hello again before the answer", expect: .recorded) { draft, _ in
      draft.answer = draft.hello + "\n" + draft.answer
    }
    add("the answer twice", expect: .recorded) { draft, _ in
      draft.answer += "\n" + draft.answer
    }
    add("the answer before the hello", expect: .cannotTest) { draft, _ in
      (draft.hello, draft.answer) = (draft.answer, draft.hello)
    }
    add("the answer with the hello, before the request", expect: .recorded) { draft, _ in
      draft.before += Array(draft.answer.utf8) + [10]
      draft.after = []
    }
    add("progress after the answer", expect: .recorded) { draft, _ in
      draft.answer += "\n" + #"{"kind":"progress","id":1,"steps":7}"#
    }

    // Members missing.
    for member in ["kind", "protocol"] {
      add("the hello without \(member)", expect: .cannotTest) { draft, _ in
        draft.hello = draft.hello.removingMember(member)
      }
    }
    for member in ["tool", "reducers"] {
      add("the hello without \(member)", expect: .either) { draft, _ in
        draft.hello = draft.hello.removingMember(member)
      }
    }
    add("the answer without kind (skipped: the host then says nothing)", expect: .cannotTest) {
      draft, _ in draft.answer = draft.answer.removingMember("kind")
    }
    for member in ["id", "report"] {
      add("the answer without \(member)", expect: .cannotTest) { draft, _ in
        draft.answer = draft.answer.removingMember(member)
      }
    }
    let reportMembers = [
      "trace", "reducer", "mode", "steps", "replayed", "divergentSteps", "divergences",
      "notReplayable", "unknown", "warnings",
    ]
    for member in reportMembers {
      add("the report without \(member)", expect: .cannotTest) { draft, _ in
        draft.answer = draft.answer.removingMember(member, in: "report")
      }
    }

    // Members of the wrong type.
    let wrongTypes: [(String, String)] = [
      ("trace", "5"), ("reducer", "null"), ("mode", #""sideways""#), ("steps", #""243""#),
      ("steps", "1e400"), ("steps", "9223372036854775808"), ("replayed", "[]"),
      ("divergentSteps", "true"), ("divergences", "{}"), ("notReplayable", #""none""#),
      ("unknown", "0.5"), ("warnings", #""x""#),
    ]
    for (member, value) in wrongTypes {
      add("the report's \(member) is \(value)", expect: .cannotTest) { draft, _ in
        draft.answer = draft.answer.replacingMember(member, in: "report", with: value)
      }
    }
    for value in ["[]", "null", #""report""#, "{}"] {
      add("the answer's report is \(value)", expect: .cannotTest) { draft, _ in
        draft.answer = draft.answer.replacingMember("report", with: value)
      }
    }
    add("the hello's kind is 5", expect: .cannotTest) { draft, _ in
      draft.hello = draft.hello.replacingMember("kind", with: "5")
    }
    add("the hello's reducers is 5", expect: .either) { draft, _ in
      draft.hello = draft.hello.replacingMember("reducers", with: "5")
    }

    // Reports that contradict themselves: a verdict read from them would be wrong.
    add("a report counting divergent steps it does not detail", expect: .cannotTest) {
      draft, _ in
      draft.answer = draft.answer.replacingMember("divergentSteps", in: "report", with: "3")
        .replacingMember("divergences", in: "report", with: "[]")
    }
    add("a report detailing a divergence it does not count", expect: .cannotTest) {
      draft, _ in
      draft.answer = draft.answer.replacingMember("divergentSteps", in: "report", with: "0")
      if !draft.answer.contains(#""divergences":[{"#) {
        draft.expectation = .recorded  // Nothing detailed: a consistent clean report.
      }
    }
    for (member, value) in [("divergentSteps", "-1"), ("steps", "-243"), ("unknown", "-5")] {
      add("the report's \(member) is \(value)", expect: .cannotTest) { draft, _ in
        draft.answer = draft.answer.replacingMember(member, in: "report", with: value)
      }
    }

    // Unknown kinds and members, which a reader skips.
    let unknownLines = [
      #"{"kind":"thinking","id":1}"#, #"{"kind":"thinking","id":99}"#,
      #"{"kind":"thinking","id":"x","more":[1,{"a":null}]}"#, #"{"kind":"thinking"}"#,
      #"{"kind":"","id":-1}"#,
    ]
    for line in unknownLines {
      add("an unknown kind before the answer: \(line)", expect: .recorded) { draft, _ in
        draft.answer = line + "\n" + draft.answer
      }
    }
    add("an unknown kind before the hello", expect: .either) { draft, _ in
      draft.hello = #"{"kind":"thinking"}"# + "\n" + draft.hello
    }
    add("an unknown member in the hello", expect: .recorded) { draft, _ in
      draft.hello = draft.hello.addingMember(#""future":{"x":[1,2,3]}"#)
    }
    add("an unknown member in the answer", expect: .recorded) { draft, _ in
      draft.answer = draft.answer.addingMember(#""future":"yes""#)
    }
    add("an unknown member in the report", expect: .recorded) { draft, _ in
      draft.answer = draft.answer.replacingFirst(
        #""report":{"#, with: #""report":{"future":[true,false],"#)
    }

    // Bytes that are not UTF-8.
    let notUTF8: [(String, [UInt8])] = [
      ("0xFF", [0xFF]), ("a lone 0xC3", [0xC3]), ("an overlong 0xC0 0xAF", [0xC0, 0xAF]),
      ("a surrogate 0xED 0xA0 0x80", [0xED, 0xA0, 0x80]), ("a NUL", [0]),
    ]
    for (what, bytes) in notUTF8 {
      add("\(what) in the report's trace name", expect: .cannotTest) { draft, _ in
        draft.insert(bytes, inAnswerAfter: #""trace":"Traces/"#)
      }
    }
    add(#"an escaped lone surrogate "\ud800" in an unknown member"#, expect: .either) {
      draft, _ in draft.answer = draft.answer.addingMember(#""future":"\ud800""#)
    }

    // Empty and blank lines.
    for count in [1, 1000, 200_000] {
      add("\(count) empty lines before the answer", expect: .cannotTest) { draft, _ in
        draft.answer = String(repeating: "\n", count: count) + draft.answer
      }
    }
    add("a line of spaces and tabs before the answer", expect: .cannotTest) { draft, _ in
      draft.answer = " \t  \n" + draft.answer
    }
    add("CRLF line ends", expect: .either) { draft, _ in
      draft.hello += "\r"
      draft.answer += "\r"
    }

    // Early exits, by every signal, anywhere; and exits mid-line.
    let signals = [
      "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
      "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG",
      "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
    ]
    for (index, signal) in signals.enumerated() {
      // Every other one once the answer is whole: its verdict stands.
      let whole = index % 2 == 1
      add("SIG\(signal) to the host's group", expect: whole ? .recorded : .cannotTest) {
        draft, random in
        if !whole { draft.cut(at: random.below(draft.totalBytes - 1), random: &random) }
        draft.ending = .signal(signal)
        draft.detail += whole ? ", after the whole answer" : ""
      }
    }
    for status in [0, 1, 2, 3, 126, 127, 255] {
      add("exit \(status) mid-line", expect: .cannotTest) { draft, random in
        draft.cut(at: random.below(draft.totalBytes - 1), random: &random)
        draft.ending = .exit(status)
      }
    }

    // Long lines, within the 64 MiB limit.
    for mebibytes in [1, 8, 24] {
      add("a \(mebibytes) MiB unknown member in the report", expect: .recorded, toolTimeout: 10) {
        draft, _ in
        let filler = String(repeating: "x", count: mebibytes << 20)
        draft.answer = draft.answer.addingMember(#""filler":"\#(filler)""#)
      }
    }
    add("a 16 MiB line of an unknown kind before the answer", expect: .recorded, toolTimeout: 10) {
      draft, _ in
      let filler = String(repeating: "ab", count: 8 << 20)
      draft.answer = #"{"kind":"thinking","filler":"\#(filler)"}"# + "\n" + draft.answer
    }

    // Deep nesting.
    for depth in [100, 500, 513, 100_000, 10_000_000] {
      add("an unknown member nested \(depth) deep", expect: .either) { draft, _ in
        let value = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        draft.answer = draft.answer.addingMember(#""deep":\#(value)"#)
      }
    }
    add("an unknown member nested 10,000,000 deep, never closed", expect: .cannotTest) {
      draft, _ in
      draft.answer = draft.answer.replacingFirst(
        #""kind":"report","#, with: #""deep":"# + String(repeating: "{\"a\":", count: 2_000_000)
      )
    }
    add("an action nested 100,000 deep", expect: .either) { draft, _ in
      let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
      draft.answer =
        draft.answer.contains(#""action":{"#)
        ? draft.answer.replacingFirst(#""action":{"#, with: #""action":{"deep":\#(deep),"#)
        : draft.answer.replacingFirst(#""report":{"#, with: #""report":{"deep":\#(deep),"#)
    }

    // Numbers at and beyond the edges, where they are skipped.
    let numbers = [
      "1e400", "-1e400", "1e-400", "123456789012345678901234567890", "-0", "0e0", "1E+2",
      "-9223372036854775809",
    ]
    for number in numbers {
      add("an unknown member \(number)", expect: .either) { draft, _ in
        draft.answer = draft.answer.addingMember(#""n":\#(number)"#)
      }
    }

    // Progress: any count is a sign of life; another request's is a violation.
    for steps in ["5", "-1", "9223372036854775807", "1e400", #""many""#] {
      // 1e400 is JSON, but no number a reader holds: the line may be refused whole.
      let expect: Expectation = steps == "1e400" ? .either : .recorded
      add("progress with steps \(steps) before the answer", expect: expect) { draft, _ in
        draft.answer = #"{"kind":"progress","id":1,"steps":\#(steps)}"# + "\n" + draft.answer
      }
    }
    for id in ["2", "null", #""1""#] {
      add("progress with id \(id)", expect: .cannotTest) { draft, _ in
        draft.answer = #"{"kind":"progress","id":\#(id),"steps":5}"# + "\n" + draft.answer
      }
    }
    add("progress with no id", expect: .cannotTest) { draft, _ in
      draft.answer = #"{"kind":"progress","steps":5}"# + "\n" + draft.answer
    }

    // Error answers, valid and not.
    let problems = ["missingTrace", "malformedTrace", "noReducer", "badRequest", "somethingNew"]
    for (index, problem) in problems.enumerated() {
      let id = index % 2 == 0 ? "1" : "null"
      add("an error (\(problem), id \(id)) as the answer", expect: .refused(problem: problem)) {
        draft, _ in
        draft.answer =
          #"{"kind":"error","id":\#(id),"problem":"\#(problem)","message":"Traces/counter.ndjson:3: bad"}"#
      }
    }
    let messages = [
      (#""two\nlines""#, "a newline"), (#""\u001b[2Jcleared""#, "an escape"),
      (#""\r\u0007""#, "a carriage return and a bell"), ("null", "null"),
    ]
    for (message, what) in messages {
      add("an error whose message is \(what)", expect: .refused(problem: "noReducer")) {
        draft, _ in
        draft.answer = #"{"kind":"error","id":1,"problem":"noReducer","message":\#(message)}"#
      }
    }
    add("an error without its problem", expect: .refused(problem: "unknown")) { draft, _ in
      draft.answer = #"{"kind":"error","id":1,"message":"no"}"#
    }
    add("an error with id 2", expect: .cannotTest) { draft, _ in
      draft.answer = #"{"kind":"error","id":2,"problem":"noReducer","message":"no"}"#
    }
    add("a flood of progress counting up", expect: .cannotTest, timeouts: 2.06) { draft, _ in
      draft.after = []
      draft.script = "i=0; while :; do i=$((i+1)); "
        + #"printf '{"kind":"progress","id":1,"steps":%d}\n' $i || exit; done"#
    }
    return built
  }()
}

/// A mutant being built: the lines it starts from and where they end up.
struct Draft {
  var hello: String
  var answer: String
  /// Set once the mutant works on bytes rather than lines.
  private var bytes: (before: [UInt8], after: [UInt8])?
  var readsRequest = true
  var ending: HostMutant.Ending = .bye
  var expectation: HostMutant.Expectation?
  /// Said after the mutant's name: where it cut, what it flipped.
  var detail = ""
  /// Shell commands run after `after`, instead of the ending's.
  var script: String?

  init(hello: String, answer: String) {
    self.hello = hello
    self.answer = answer
  }

  var before: [UInt8] {
    get { bytes?.before ?? Array((hello + "\n").utf8) }
    set { bytes = (newValue, after) }
  }

  var after: [UInt8] {
    get { bytes?.after ?? Array((answer + "\n").utf8) }
    set { bytes = (before, newValue) }
  }

  var totalBytes: Int { before.count + after.count }

  /// Keeps only the first `count` bytes; the host stops where they end.
  mutating func cut(at count: Int, random: inout SplitMix) {
    let all = before + after
    if count < before.count {
      bytes = (Array(all[..<count]), [])
      readsRequest = false
    } else {
      bytes = (before, Array(all[before.count..<count]))
    }
    detail = ": cut after byte \(count) of \(all.count)"
  }

  mutating func append(_ extra: [UInt8]) {
    if readsRequest { after += extra } else { before += extra }
  }

  mutating func setLine(_ line: Int, _ new: [UInt8]) {
    if line == 0 {
      bytes = (new + [10], after)
    } else {
      bytes = (before, new + [10])
    }
  }

  mutating func insert(_ inserted: [UInt8], inAnswerAfter marker: String) {
    var answerBytes = Array(answer.utf8)
    let at = answer.range(of: marker)!.upperBound.utf16Offset(in: answer)
    answerBytes.insert(contentsOf: inserted, at: at)
    bytes = (before, answerBytes + [10])
  }
}


extension String {
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = range(of: target) else {
      preconditionFailure("\(target) is not in the recorded line")
    }
    return replacingCharacters(in: range, with: replacement)
  }

  /// The compact JSON object line with `"name":<value>` replaced, in the nested object `in`
  /// when given. Values are found by scanning to the matching bracket, outside strings.
  func replacingMember(_ name: String, in parent: String? = nil, with value: String) -> String {
    let bytes = Array(utf8)
    let (start, end) = memberRange(name, in: parent, bytes)
    return String(decoding: bytes[..<start] + Array("\"\(name)\":\(value)".utf8) + bytes[end...],
      as: UTF8.self)
  }

  /// The line without member `name` (and its comma).
  func removingMember(_ name: String, in parent: String? = nil) -> String {
    let bytes = Array(utf8)
    var (start, end) = memberRange(name, in: parent, bytes)
    if end < bytes.count, bytes[end] == UInt8(ascii: ",") {
      end += 1
    } else if bytes[start - 1] == UInt8(ascii: ",") {
      start -= 1
    }
    return String(decoding: bytes[..<start] + bytes[end...], as: UTF8.self)
  }

  /// The line with `member` (`"name":value`) added as its first member.
  func addingMember(_ member: String) -> String {
    "{" + member + "," + dropFirst()
  }

  /// Where `"name":value` is: from its opening quote to just past the value.
  private func memberRange(_ name: String, in parent: String?, _ bytes: [UInt8]) -> (Int, Int) {
    // Just inside the object whose members are searched.
    var from = 1
    if let parent {
      from = range(of: "\"\(parent)\":{")!.upperBound.utf16Offset(in: self)
    }
    let key = Array("\"\(name)\":".utf8)
    // The first occurrence at depth 0 from `from`, outside strings.
    var depth = 0
    var inString = false
    var index = from
    while index < bytes.count {
      let byte = bytes[index]
      if inString {
        if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if depth == 0, byte == UInt8(ascii: "\""),
        bytes[index...].starts(with: key)
      {
        let start = index
        var end = index + key.count
        var valueDepth = 0
        var valueString = false
        while end < bytes.count {
          let value = bytes[end]
          if valueString {
            if value == UInt8(ascii: "\\") { end += 1 } else if value == UInt8(ascii: "\"") {
              valueString = false
            }
          } else if value == UInt8(ascii: "\"") {
            valueString = true
          } else if value == UInt8(ascii: "{") || value == UInt8(ascii: "[") {
            valueDepth += 1
          } else if value == UInt8(ascii: "}") || value == UInt8(ascii: "]") {
            if valueDepth == 0 { break }
            valueDepth -= 1
          } else if value == UInt8(ascii: ","), valueDepth == 0 {
            break
          }
          end += 1
        }
        return (start, end)
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
        depth += 1
      } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
        depth -= 1
      }
      index += 1
    }
    preconditionFailure("no member \(name) in the recorded line")
  }
}
