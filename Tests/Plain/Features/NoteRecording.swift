import Architecture

/// The recording sheet: counts the seconds while the microphone records, and hands the finished
/// note to the list when stopped.
struct NoteRecording: Reducer {
  struct State: Equatable {
    var date: Date
    var duration: Duration = .zero
    var url: URL
  }

  enum Action: Equatable {
    case delegate(Delegate)
    case finalRecordingTime(Duration)
    case onTask
    case recordingFinished(TaskResult<Bool>)
    case stopButtonTapped
    case timerTicked

    enum Delegate: Equatable {
      case didFinish(TaskResult<State>)
    }
  }

  @Dependency(\.audioClient) var audioClient
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .delegate:
        return .none

      case let .finalRecordingTime(duration):
        state.duration = duration
        return .none

      case .onTask:
        return .merge(
          .run { [url = state.url] send in
            await send(
              .recordingFinished(TaskResult { try await self.audioClient.startRecording(url) })
            )
          },
          .run { send in
            for await _ in self.clock.timer(interval: .seconds(1)) {
              await send(.timerTicked)
            }
          }
        )

      case .recordingFinished(.success(true)):
        return .send(.delegate(.didFinish(.success(state))))

      case .recordingFinished(.success(false)):
        return .none

      case let .recordingFinished(.failure(error)):
        return .send(.delegate(.didFinish(.failure(error))))

      case .stopButtonTapped:
        return .run { [duration = state.duration] send in
          await send(.finalRecordingTime(duration))
          await self.audioClient.stopRecording()
        }

      case .timerTicked:
        state.duration += .seconds(1)
        return .none
      }
    }
  }
}
