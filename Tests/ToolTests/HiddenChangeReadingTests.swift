import Architecture
import Foundation
import Recorder
import TestSupport
import Testing

/// The readers that say a hidden value changed in place: the stepper's watch, `diff` across an
/// insert that moves the value, and `log --changed` on the parallel scan. The app is a hotel's
/// front desk, written as a TCA user would (no `Codable`): each room's key code and the safe's
/// PIN are redacted; a guest checked in goes to the top of the list, moving the others.
@Suite("Hidden values changed in place, in watch, diff and log --changed")
struct HiddenChangeReadingTests {
  struct FrontDesk: Reducer {
    struct Room: Identifiable {
      let id: Int
      var guest: String
      var keyCode: String
    }

    struct State {
      var rooms: IdentifiedArrayOf<Room> = []
      var shift = "night"
      var safePin = "0000"
    }

    enum Action {
      case checkedIn(room: Int, guest: String, keyCode: String)
      case keyRecut(room: Int, keyCode: String)
      case safePinChanged(String)
      case shiftChanged(String)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .checkedIn(let room, let guest, let keyCode):
        state.rooms.insert(Room(id: room, guest: guest, keyCode: keyCode), at: 0)
      case .keyRecut(let room, let keyCode): state.rooms[id: room]?.keyCode = keyCode
      case .safePinChanged(let pin): state.safePin = pin
      case .shiftChanged(let shift): state.shift = shift
      }
      return .none
    }
  }

  /// The session; the secrets are never in any output.
  static let secrets = ["K1-7731", "K2-0452", "K3-9918", "K4-6613", "4821"]
  static let session: [FrontDesk.Action] = [
    .checkedIn(room: 101, guest: "Okafor", keyCode: "K1-7731"),  // 0
    .shiftChanged("day"),  // 1
    .keyRecut(room: 101, keyCode: "K2-0452"),  // 2: /rooms/0/keyCode in place
    .checkedIn(room: 204, guest: "Lindqvist", keyCode: "K3-9918"),  // 3: 101 moves to /rooms/1
    .safePinChanged("4821"),  // 4: /safePin in place
    .keyRecut(room: 101, keyCode: "K4-6613"),  // 5: /rooms/1/keyCode in place
    .shiftChanged("night"),  // 6
  ]

  /// Records the session, redacted, with a keyframe every `keyframeInterval` steps.
  static func record(keyframeInterval: Int = 2) throws -> String {
    let directory = Scratch.url("hidden-change-reading")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("desk.ndjson").path
    let recorder = try TraceRecorder(
      path: path,
      options: .init(
        keyframeInterval: keyframeInterval,
        redactions: [
          .key("keyCode"), .key("safePin"), .key("checkedIn"), .key("keyRecut"),
          .key("safePinChanged"),
        ]))
    let reducer = Reduce(FrontDesk().recording(to: recorder))
    var state = FrontDesk.State()
    for action in session { _ = reducer.reduce(into: &state, action: action) }
    try recorder.close()
    return path
  }

  /// Removes the folder `record` made for `trace`.
  static func remove(_ trace: String) {
    try? FileManager.default.removeItem(atPath: (trace as NSString).deletingLastPathComponent)
  }

  static func expectNoSecret(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in secrets {
      #expect(!text.contains(secret), "shows \(secret)", sourceLocation: sourceLocation)
    }
  }

  @Test("the stepper's continue and reverse-continue stop where a watched hidden value changed")
  func watchStops() throws {
    let trace = try Self.record()
    defer { Self.remove(trace) }
    let script = [
      "watch /safePin", "continue", "unwatch", "goto 1", "watch /rooms/0/keyCode", "continue",
      "continue",
      "reverse-continue", "goto 5", "watch /rooms[id=101]",
    ]
    let result = try ToolRunner.run(["step", trace], input: script.joined(separator: "\n") + "\n")
    #expect(result.status == 0, "\(result.errors)")
    let lines = result.output.split(separator: "\n").map(String.init)
    let said = lines.filter { $0.hasPrefix("Watch") && !$0.hasPrefix("Watching /rooms[id=101]:") }
    #expect(
      said == [
        "Watching /safePin: now \"<redacted>\".",
        "Watch /safePin: changed, value redacted",
        "Watching /rooms[id=101]/keyCode: now \"<redacted>\".",
        "Watch /rooms[id=101]/keyCode: changed, value redacted",
        // Step 5: room 101 is /rooms/1 by then; the watch follows it by id.
        "Watch /rooms[id=101]/keyCode: changed, value redacted",
        "Watch /rooms[id=101]/keyCode: changed, value redacted",
      ], "\(result.output)")
    // The room's JSON reads the same before step 5 and after it: only its patch says it changed.
    let room = lines.first { $0.hasPrefix("Watching /rooms[id=101]: now ") }
    #expect(room?.hasSuffix("; this step changed it, value redacted.") == true, "\(lines)")
    // Where each continue stopped: 4, then (from 1) 2 and 5, then back to 2.
    let stops = lines.filter { $0.hasPrefix("step ") }.map { $0.prefix { $0 != "/" } }
    #expect(stops == ["step 4", "step 1", "step 2", "step 5", "step 2", "step 5"], "\(lines)")
    Self.expectNoSecret(result.output + result.errors)
  }

  @Test("diff says a hidden change at its path in the later state, after an insert moved it")
  func diffFollowsMove() throws {
    let trace = try Self.record()
    defer { Self.remove(trace) }
    // Step 2 changed room 101's key in place at /rooms/0; step 3 put room 204 before it.
    let forwards = try ToolRunner.run(["diff", trace, "1", "3"])
    #expect(forwards.status == 0, "\(forwards.errors)")
    #expect(forwards.output.contains("  ~ /rooms/1/keyCode: changed, value redacted\n"))
    #expect(!forwards.output.contains("/rooms/0/keyCode"), "\(forwards.output)")
    // Backwards, the later state is the earlier one, where room 101 is still first.
    let backwards = try ToolRunner.run(["diff", trace, "3", "1"])
    #expect(backwards.output.contains("  ~ /rooms/0/keyCode: changed, value redacted\n"))
    #expect(!backwards.output.contains("/rooms/1/keyCode"), "\(backwards.output)")
    let json = try ToolRunner.run(["diff", trace, "1", "3", "--json"]).output
    #expect(json.contains(#"{"op":"replace","path":"/rooms/1/keyCode","value":"<redacted>"}"#))
    // Room 204 is new between 1 and 3: shown as added, its key not as changed in place.
    let whole = try ToolRunner.run(["diff", trace, "initial", "last"]).output
    #expect(!whole.contains("keyCode: changed"), "\(whole)")
    #expect(whole.contains("  ~ /safePin: changed, value redacted\n"), "\(whole)")
    Self.expectNoSecret(forwards.output + backwards.output + json + whole)
  }

  @Test(
    "log --changed lists hidden changes on the parallel scan, byte for byte as the checked read",
    arguments: ["/safePin", "/rooms[id=101]", "/rooms", "/rooms/1/keyCode"])
  func logChangedOnScan(path: String) throws {
    let trace = try Self.record()
    defer { Self.remove(trace) }
    // A blank last line sends the scan back to the checked reader, which ignores the line.
    let checked = trace + ".checked.ndjson"
    defer { try? FileManager.default.removeItem(atPath: checked) }
    try (String(contentsOfFile: trace, encoding: .utf8) + "\n")
      .write(toFile: checked, atomically: true, encoding: .utf8)
    #expect(CheckedTraceReader.firstProblem(in: trace) == nil)
    for json in [false, true] {
      let arguments = ["log", "--changed", path] + (json ? ["--json"] : [])
      let scanned = try ToolRunner.run(arguments + [trace])
      let read = try ToolRunner.run(arguments + [checked])
      #expect(scanned.status == 0, "\(scanned.errors)")
      #expect(scanned.output == read.output, "\(arguments)")
      #expect(scanned.errors == read.errors)
      Self.expectNoSecret(scanned.output)
    }
  }

  @Test("the scan says which hidden values each step changed in place under the watched path")
  func scanSaysHiddenChanges() throws {
    let trace = try Self.record()
    defer { Self.remove(trace) }
    let options = CheckedTraceReader.Scan.Options(
      changed: .root, hiddenChanges: true,
      write: { step, out in
        let hidden = step.change?.redacted.map(\.description).joined(separator: ",") ?? ""
        out += Array("\(step.index) \(step.changed) \(hidden)\n".utf8)
      }, threads: 2)
    var text = ""
    let outcome = try CheckedTraceReader.Scan.run(path: trace, options: options) {
      text += $0.text
    }
    #expect(outcome == .complete)
    #expect(
      text.split(separator: "\n") == [
        "0 true ", "1 true ", "2 true /rooms/0/keyCode", "3 true ", "4 true /safePin",
        "5 true /rooms/1/keyCode", "6 true ",
      ])
  }
}
