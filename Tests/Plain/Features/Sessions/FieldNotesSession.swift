import Architecture

/// Records a note (stopped after three seconds), renames and plays it, has the microphone
/// refused, records a second note, plays one then the other, and deletes one.
///
/// The temporary directory is the file manager's, as in the app (a test context would give the
/// key's fixed test value): it differs between machines, and the session completes wherever
/// it points.
enum FieldNotesSession: PlainSession {
  static let name = "Field notes"
  static func makeReducer() -> FieldNotes { FieldNotes() }
  static func makeInitialState() -> FieldNotes.State { FieldNotes.State() }

  static func prepareDependencies(_ dependencies: inout DependencyValues) {
    let clock = dependencies.continuousClock
    let isRecording = LockIsolated(false)
    let recordings = LockIsolated(0)
    dependencies.date = .constant(Date(timeIntervalSince1970: 1_800_000_000))
    dependencies.temporaryDirectory = FileManager.default.temporaryDirectory
    dependencies.uuid = .incrementing
    dependencies.audioClient = AudioClient(
      play: { _ in
        // Shorter than the notes, and off the half-second ticks, so ticks and the end of
        // playback never wake at the same instant.
        try await clock.sleep(for: .milliseconds(1_250))
        return true
      },
      startRecording: { _ in
        recordings.withValue { $0 += 1 }
        guard recordings.value != 2 else { throw RecorderError.microphoneDenied }
        isRecording.setValue(true)
        while isRecording.value {
          try await clock.sleep(for: .milliseconds(500))
        }
        return true
      },
      stopRecording: { isRecording.setValue(false) }
    )
  }

  static func drive(_ driver: PlainDriver<FieldNotes.State, FieldNotes.Action>) async {
    await record(driver, seconds: 3)
    guard let first = driver.state.notes.first?.id else { return }
    await driver.send(.note(id: first, action: .set(\.$title, "Wren by the stream")))
    await driver.send(.note(id: first, action: .playButtonTapped))
    await driver.advance(by: .seconds(2), step: .milliseconds(250))

    // The microphone is refused: the sheet closes and the alert says why.
    await driver.send(.recordButtonTapped)
    await driver.send(.recording(.presented(.onTask)))
    await driver.send(.alert(.dismiss))

    await record(driver, seconds: 2)
    guard let second = driver.state.notes.first?.id else { return }
    await driver.send(.note(id: first, action: .playButtonTapped))
    await driver.advance(by: .milliseconds(500), step: .milliseconds(250))
    await driver.send(.note(id: second, action: .playButtonTapped))
    await driver.advance(by: .seconds(2), step: .milliseconds(250))
    await driver.send(.delete(IndexSet(integer: 1)))
  }

  /// Opens the recording sheet, records for `seconds`, stops, and waits for the note.
  private static func record(
    _ driver: PlainDriver<FieldNotes.State, FieldNotes.Action>, seconds: Int
  ) async {
    await driver.send(.recordButtonTapped)
    await driver.send(.recording(.presented(.onTask)))
    await driver.advance(by: .seconds(seconds))
    await driver.send(.recording(.presented(.stopButtonTapped)))
    await driver.advance(by: .milliseconds(500))
  }
}
