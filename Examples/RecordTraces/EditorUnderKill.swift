import Architecture
import Foundation
import Recorder

#if canImport(Glibc)
  import Glibc
#endif

/// A text editor fed keystrokes as fast as it takes them, recorded until the process is killed:
/// the kill tests' child. Its state is one long string with hostile bytes (quotes, escapes,
/// control characters, emoji), unlike the examples' small structs.
///
/// After each step is handed to the recorder, it appends `<index> <CLOCK_MONOTONIC ns>` to the
/// log, so the test knows which steps were handed over when it killed the process.
struct Editor: Reducer {
  struct State: Codable, Equatable {
    var text = String(repeating: "\"\\\u{1}é🙂 line\n", count: 2_000)
    var caret = 0
  }

  enum Action: Codable, Equatable {
    case typed(String)
    case deleted
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .typed(text):
      state.text += text
      state.caret += text.count
    case .deleted:
      if !state.text.isEmpty { state.text.removeLast() }
      state.caret = max(0, state.caret - 1)
    }
    return .none
  }

  /// `record-traces --editor-until-killed <none|rotate|last-steps|big> <trace> <log>`.
  @MainActor
  static func recordUntilKilled(limit: String, path: String, logPath: String) throws -> Never {
    // Die with the test that started us, even if it is killed before it can kill us.
    let parent = getppid()
    Thread.detachNewThread {
      while getppid() == parent { usleep(100_000) }
      exit(1)
    }
    var options = TraceRecorder.Options(keyframeInterval: 50)
    var state = State()
    switch limit {
    case "rotate": options.limit = .rotate(maxBytes: 2_000_000, keep: 1)
    case "rotate-keep-0": options.limit = .rotate(maxBytes: 2_000_000, keep: 0)
    case "last-steps": options.limit = .lastSteps(40)
    case "big":
      // Keystrokes in a 1 MB string: the queue's byte bound, not its step count, holds.
      state.text = String(repeating: "x", count: 1 << 20)
    default: break
    }
    let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    let recorder = try TraceRecorder(path: path, options: options)
    let store = Store(initialState: state) { Editor().recording(to: recorder) }
    var index = 0
    let keys = ["a", "\"", "\\", "\n", "\u{7}", "🙂", "é", " "]
    while true {
      store.send(index % 7 == 6 ? .deleted : .typed(keys[index % keys.count]))
      var now = timespec()
      clock_gettime(CLOCK_MONOTONIC, &now)
      let line = Array("\(index) \(Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec))\n".utf8)
      _ = line.withUnsafeBytes { write(log, $0.baseAddress, $0.count) }
      index += 1
      if limit == "big", index == 1_000 { break }
    }
    try recorder.close()
    exit(0)
  }
}
