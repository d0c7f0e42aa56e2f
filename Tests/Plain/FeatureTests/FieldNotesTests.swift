import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Field notes")
struct FieldNotesTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let directory = URL(fileURLWithPath: "/tmp/field-notes", isDirectory: true)

  @Test("recording writes into the temporary directory and keeps the note when it finishes")
  func recordAndKeep() async {
    let clock = TestClock()
    let finish = AsyncStream<Bool>.makeStream()
    let store = TestStore(initialState: FieldNotes.State()) {
      FieldNotes()
    } withDependencies: { [now, directory] in
      $0.continuousClock = clock
      $0.date = .constant(now)
      $0.temporaryDirectory = directory
      $0.uuid = .incrementing
      $0.audioClient.startRecording = { _ in
        for await result in finish.stream { return result }
        return false
      }
      $0.audioClient.stopRecording = { finish.continuation.yield(true) }
    }

    let url = directory.appendingPathComponent(UUID(0).uuidString).appendingPathExtension("m4a")
    await store.send(.recordButtonTapped) {
      $0.recording = NoteRecording.State(date: now, url: url)
    }
    await store.send(.recording(.presented(.onTask)))
    await clock.advance(by: .seconds(1))
    await store.receive(.recording(.presented(.timerTicked))) {
      $0.recording?.duration = .seconds(1)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.recording(.presented(.timerTicked))) {
      $0.recording?.duration = .seconds(2)
    }
    await store.send(.recording(.presented(.stopButtonTapped)))
    await store.receive(.recording(.presented(.finalRecordingTime(.seconds(2)))))
    await store.receive(.recording(.presented(.recordingFinished(.success(true)))))
    let finished = NoteRecording.State(date: now, duration: .seconds(2), url: url)
    await store.receive(.recording(.presented(.delegate(.didFinish(.success(finished)))))) {
      $0.recording = nil
      $0.notes = [FieldNote.State(date: now, duration: .seconds(2), url: url)]
    }
  }

  @Test("a refused microphone closes the sheet and shows the error's description")
  func recordingFails() async {
    let store = TestStore(initialState: FieldNotes.State()) {
      FieldNotes()
    } withDependencies: { [now, directory] in
      $0.continuousClock = TestClock()
      $0.date = .constant(now)
      $0.temporaryDirectory = directory
      $0.uuid = .incrementing
      $0.audioClient.startRecording = { _ in throw RecorderError.microphoneDenied }
    }
    store.exhaustivity = .off

    await store.send(.recordButtonTapped)
    await store.send(.recording(.presented(.onTask)))
    await store.receive(
      .recording(.presented(.delegate(.didFinish(.failure(RecorderError.microphoneDenied)))))
    ) {
      $0.recording = nil
      $0.alert = AlertState {
        TextState("Recording failed")
      } message: {
        TextState("Field Notes may not use the microphone.")
      }
    }
  }

  @Test("the live temporary directory is the file manager's")
  func liveTemporaryDirectory() {
    let live = withDependencies {
      $0.context = .live
    } operation: {
      @Dependency(\.temporaryDirectory) var temporaryDirectory
      return temporaryDirectory
    }
    #expect(live == FileManager.default.temporaryDirectory)
  }

  @Test("playing a note ticks its progress until playback ends")
  func playback() async {
    let clock = TestClock()
    let url = directory.appendingPathComponent("a.m4a")
    let store = TestStore(
      initialState: FieldNotes.State(
        notes: [FieldNote.State(date: now, duration: .seconds(1), url: url)]
      )
    ) {
      FieldNotes()
    } withDependencies: {
      $0.continuousClock = clock
      $0.audioClient.play = { _ in
        try await clock.sleep(for: .milliseconds(1_250))
        return true
      }
    }

    await store.send(.note(id: url, action: .playButtonTapped)) {
      $0.notes[id: url]?.mode = .playing(progress: 0)
    }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.note(id: url, action: .timerTicked)) {
      $0.notes[id: url]?.mode = .playing(progress: 0.5)
    }
    await clock.advance(by: .milliseconds(500))
    await store.receive(.note(id: url, action: .timerTicked)) {
      $0.notes[id: url]?.mode = .playing(progress: 1)
    }
    await clock.advance(by: .milliseconds(250))
    await store.receive(.note(id: url, action: .playbackFinished(.success(true)))) {
      $0.notes[id: url]?.mode = .notPlaying
    }
  }

  @Test("playing one note stops the other; deleting by IndexSet removes a note")
  func oneAtATimeAndDelete() async {
    let clock = TestClock()
    let a = FieldNote.State(
      date: now, duration: .seconds(5), mode: .playing(progress: 0.2),
      url: directory.appendingPathComponent("a.m4a")
    )
    let b = FieldNote.State(
      date: now, duration: .seconds(5), url: directory.appendingPathComponent("b.m4a")
    )
    let store = TestStore(initialState: FieldNotes.State(notes: [a, b])) {
      FieldNotes()
    } withDependencies: {
      $0.continuousClock = clock
      $0.audioClient.play = { _ in try await Task.never() }
    }

    await store.send(.note(id: b.id, action: .playButtonTapped)) {
      $0.notes[id: b.id]?.mode = .playing(progress: 0)
    }
    await store.receive(.note(id: a.id, action: .playButtonTapped)) {
      $0.notes[id: a.id]?.mode = .notPlaying
    }
    await store.send(.delete(IndexSet(integer: 1))) {
      $0.notes.remove(id: b.id)
    }
  }
}
