import Architecture

/// Dictates notes: stopping asks the transcriber for the final text, then files the finished
/// draft in one go, as a child hands its result to its parent through a delegate action.
struct Dictation: Reducer {
  struct State: Equatable {
    var draft: Draft?
    var notes: [Draft] = []
  }

  enum Action: Equatable {
    case finalTranscript(String)
    case finished(Draft)
    case startButtonTapped
    case stopButtonTapped
  }

  @Dependency(\.transcriber) var transcriber

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .finalTranscript(text):
        state.draft?.text = text
        state.draft?.wordCount = text.split(separator: " ").count
        guard let draft = state.draft else { return .none }
        return .send(.finished(draft))

      case let .finished(draft):
        state.draft = nil
        state.notes.append(draft)
        return .none

      case .startButtonTapped:
        state.draft = Draft()
        return .none

      case .stopButtonTapped:
        return .run { send in
          await send(.finalTranscript(try await self.transcriber.finish()))
        }
      }
    }
  }
}
