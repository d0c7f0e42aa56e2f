import Architecture
import Foundation
import Recorder
import Testing
import TraceJSON

/// A nil optional is recorded as an absent member, and is a value, `nil`, wherever a path asks
/// for it; only a path the state's type cannot have is an error. On a shop recorded now, in a
/// shape no example has: optionals in optionals, an optional enum payload, a dictionary.
@Suite("Absent paths are nil")
@MainActor
struct AbsentPathTests {
  struct Coupon: Codable, Equatable, Sendable {
    var code: String
    var expiry: Int?
  }

  enum Discount: Codable, Equatable, Sendable {
    case percent(Int?)
    case none
  }

  struct State: Codable, Equatable, Sendable {
    var coupon: Coupon?
    var note: String?? = .some(nil)
    var discount: Discount?
    var prices: [String: Int] = ["tea": 3]
  }

  struct Shop: Reducer {
    enum Action: Codable, Equatable, Sendable {
      case couponApplied(String)
      case discountChosen(Int?)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .couponApplied(let code): state.coupon = Coupon(code: code)
      case .discountChosen(let percent): state.discount = .percent(percent)
      }
      return .none
    }
  }

  /// Step 0 applies a coupon with no expiry; step 1 chooses a discount with no percentage.
  static func record() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("absent-\(UUID().uuidString).ndjson").path
    let recorder = TraceRecorder(sink: try .file(atPath: path))
    let reducer = Reduce(Shop().recording(to: recorder))
    var state = State()
    _ = reducer.reduce(into: &state, action: .couponApplied("TEA10"))
    _ = reducer.reduce(into: &state, action: .discountChosen(nil))
    try recorder.close()
    return path
  }

  static let absent: [(step: String, path: String)] = [
    ("initial", "/coupon"), ("initial", "/coupon/code"), ("0", "/coupon/expiry"),
    ("initial", "/note"), ("initial", "/discount"), ("1", "/discount/percent/_0"),
    ("0", "/prices/coffee"),
  ]

  @Test("state --path prints nil and --json null for a nil or absent value, exit 0")
  func stateNil() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    for (step, path) in Self.absent {
      let text = try ToolRunner.run(["state", trace, step, "--path", path])
      #expect(text.status == 0, "\(step) \(path): \(text.errors)")
      #expect(text.output == "nil\n", "\(step) \(path)")
      #expect(text.errors == "", "\(step) \(path)")
      let json = try ToolRunner.run(["state", trace, step, "--path", path, "--json"])
      #expect(json.output == "null\n", "\(step) \(path)")
    }
    let present = try ToolRunner.run(["state", trace, "1", "--path", "/coupon/code"])
    #expect(present.output == "\"TEA10\"\n")
  }

  @Test("a path the type cannot have is a usage error naming what the type has")
  func stateImpossible() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let cases: [(path: String, message: String)] = [
      ("/cuopon", "'/cuopon': no member 'cuopon' in AbsentPathTests.State; "
        + "members: coupon, note, discount, prices"),
      ("/coupon/cdoe", "'/coupon/cdoe': no member 'cdoe' in AbsentPathTests.Coupon; "
        + "members: code, expiry"),
      ("/discount/fixed", "'/discount/fixed': no case 'fixed' in AbsentPathTests.Discount"),
      ("/prices/tea/x", "'/prices/tea/x': Int has nothing inside it"),
    ]
    for (path, message) in cases {
      let result = try ToolRunner.run(["state", trace, "0", "--path", path])
      #expect(result.status == 64, "\(path)")
      #expect(result.output == "", "\(path)")
      #expect(result.errors.hasPrefix("Error: \(message)"), "\(path): \(result.errors)")
    }
  }

  @Test("the stepper prints and watches nil, and stays open after a path the type cannot have")
  func stepper() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let fine = try ToolRunner.run(
      ["step", trace], input: "print /coupon\nwatch /coupon/expiry\nnext\nprint /coupon/expiry\n")
    #expect(fine.status == 0, "\(fine.errors)")
    #expect(fine.errors == "")
    #expect(fine.output.contains("initial state, before step 0\nnil\n"))
    #expect(fine.output.contains("Watching /coupon/expiry: now nil.\n"))
    let typo = try ToolRunner.run(["step", trace], input: "print /cuopon\nnext\nprint /coupon/code\n")
    #expect(typo.status == 64)
    #expect(typo.errors.contains("Error: '/cuopon': no member 'cuopon'"))
    #expect(typo.output.hasSuffix("\"TEA10\"\n"), "the session goes on after the error")
  }

  @Test("diff --path compares nil with a value, and log --changed takes an absent path")
  func diffAndLog() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let diff = try ToolRunner.run(["diff", trace, "initial", "0", "--path", "/coupon/expiry"])
    #expect(diff.status == 0, "\(diff.errors)")
    let bothNil = try ToolRunner.run(["diff", trace, "initial", "0", "--path", "/discount"])
    #expect(bothNil.status == 0, "\(bothNil.errors)")
    let typo = try ToolRunner.run(["diff", trace, "initial", "0", "--path", "/cuopon"])
    #expect(typo.status == 64)
    let log = try ToolRunner.run(["log", trace, "--changed", "/discount/percent/_0"])
    #expect(log.status == 0, "\(log.errors)")
  }

  @Test("without types, an absent path is nil with a note that it was not checked")
  func untyped() throws {
    let trace = try Self.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    // The same trace with every `types` member taken out.
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    var stripped = ""
    for line in lines {
      var record = try JSONValue(parsing: String(line))
      if case .object(var members) = record {
        members["types"] = nil
        record = .object(members)
      }
      stripped += record.jsonString + "\n"
    }
    let untyped = trace + ".untyped.ndjson"
    try stripped.write(toFile: untyped, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: untyped) }
    let result = try ToolRunner.run(["state", untyped, "0", "--path", "/cuopon"])
    #expect(result.status == 0)
    #expect(result.output == "nil\n")
    #expect(result.errors.hasPrefix("note: nothing is at '/cuopon'"))
  }
}
