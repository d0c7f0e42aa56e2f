import Architecture

/// A naturalist's voice notes: record into the temporary directory, keep the finished notes in
/// a list, play or rename them, swipe to delete. A refused microphone is explained in an alert.
struct FieldNotes: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    var notes: IdentifiedArrayOf<FieldNote.State> = []
    @PresentationState var recording: NoteRecording.State?
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case delete(IndexSet)
    case note(id: FieldNote.State.ID, action: FieldNote.Action)
    case recordButtonTapped
    case recording(PresentationAction<NoteRecording.Action>)

    /// The alert only explains; its one button dismisses it.
    enum Alert: Equatable {}
  }

  @Dependency(\.date.now) var now
  @Dependency(\.temporaryDirectory) var temporaryDirectory
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert:
        return .none

      case let .delete(offsets):
        state.notes.remove(atOffsets: offsets)
        return .none

      case let .note(id: id, action: .playButtonTapped):
        // One note plays at a time: when this one starts, another playing note is stopped as
        // its own button would.
        guard state.notes[id: id]?.mode != .notPlaying else { return .none }
        let playing = state.notes.filter { $0.id != id && $0.mode != .notPlaying }
        return .merge(playing.map { .send(.note(id: $0.id, action: .playButtonTapped)) })

      case .note:
        return .none

      case .recordButtonTapped:
        state.recording = NoteRecording.State(
          date: self.now,
          url: self.temporaryDirectory
            .appendingPathComponent(self.uuid().uuidString)
            .appendingPathExtension("m4a")
        )
        return .none

      case let .recording(.presented(.delegate(.didFinish(.success(recording))))):
        state.recording = nil
        state.notes.insert(
          FieldNote.State(date: recording.date, duration: recording.duration, url: recording.url),
          at: 0
        )
        return .none

      case let .recording(.presented(.delegate(.didFinish(.failure(error))))):
        state.recording = nil
        state.alert = AlertState {
          TextState("Recording failed")
        } message: {
          TextState(error.localizedDescription)
        }
        return .none

      case .recording:
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
    .ifLet(\.$recording, action: /Action.recording) {
      NoteRecording()
    }
    .forEach(\.notes, action: /Action.note(id:action:)) {
      FieldNote()
    }
  }
}
