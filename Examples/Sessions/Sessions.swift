import Architecture
import Counter
import Recorder

/// The example sessions recorded into `Traces/`, by file name.
@MainActor
public enum ExampleSession: String, CaseIterable, Sendable {
  case counter
  case todos
  case composedApp = "composed-app"
  case bookshelf

  /// The trace file this session is recorded to.
  public var fileName: String { "\(rawValue).ndjson" }

  /// Plays the session, recording it to `recorder`.
  public func record(to recorder: TraceRecorder) async {
    switch self {
    case .counter: await recordCounterSession(to: recorder)
    case .todos: await recordTodosSession(to: recorder)
    case .composedApp: await recordComposedAppSession(to: recorder)
    case .bookshelf: await recordBookshelfSession(to: recorder)
    }
  }
}

extension ExampleSession {
  /// Sends `count` increments to the counter through `recorder`, and returns without closing it.
  @MainActor
  public static func recordCounterSteps(_ count: Int, to recorder: TraceRecorder) async {
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature()
        .recording(to: recorder)
    }
    for _ in 0..<count { store.send(.incrementButtonTapped) }
  }

  /// Records `count` steps of the counter into a recorder that is a local of this function and
  /// never closed: it is freed when the function returns, as a recorder local to `main` is.
  public static func recordCounterStepsAndReturn(_ count: Int, toPath path: String) async {
    guard let recorder = try? TraceRecorder(path: path, options: .init(keyframeInterval: 0))
    else { return }
    await recordCounterSteps(count, to: recorder)
  }
}
