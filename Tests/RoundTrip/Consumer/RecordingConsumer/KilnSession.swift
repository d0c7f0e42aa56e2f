import Architecture
import Kiln
import Recorder

/// Records the kiln's long session in a store, as an app does, with Recorder's public API and
/// its crash handler on: the session ends in the kiln's planted crash, so the process dies at
/// its last action and the trace ends in a crash record.
@MainActor
public func recordKilnSession(steps: Int, toPath path: String) throws {
  let recorder = try TraceRecorder(path: path, options: .init(recordsCrashes: true))
  let store = Store(initialState: KilnFeature.State()) {
    KilnFeature().recording(to: recorder)
  }
  for action in KilnFeature.session(steps: steps) { store.send(action) }
  try recorder.close()
}
