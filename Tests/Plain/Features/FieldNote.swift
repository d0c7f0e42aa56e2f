import Architecture

/// One recorded field note: rename it, or play it with a progress timer.
struct FieldNote: Reducer {
  enum Mode: Equatable {
    case notPlaying
    case playing(progress: Double)
  }

  struct State: Equatable, Identifiable {
    var date: Date
    var duration: Duration
    var mode = Mode.notPlaying
    @BindingState var title = ""
    var url: URL

    var id: URL { url }
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case playButtonTapped
    case playbackFinished(TaskResult<Bool>)
    case timerTicked
  }

  enum CancelID { case play }

  @Dependency(\.audioClient) var audioClient
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none

      case .playButtonTapped:
        guard state.mode == .notPlaying else {
          state.mode = .notPlaying
          return .cancel(id: CancelID.play)
        }
        state.mode = .playing(progress: 0)
        return .merge(
          .run { [url = state.url] send in
            await send(.playbackFinished(TaskResult { try await self.audioClient.play(url) }))
          },
          .run { [duration = state.duration] send in
            var elapsed = Duration.zero
            while elapsed < duration {
              try await self.clock.sleep(for: .milliseconds(500))
              elapsed += .milliseconds(500)
              await send(.timerTicked)
            }
          }
        )
        .cancellable(id: CancelID.play, cancelInFlight: true)

      case .playbackFinished:
        state.mode = .notPlaying
        return .cancel(id: CancelID.play)

      case .timerTicked:
        guard case let .playing(progress) = state.mode else { return .none }
        let seconds = Double(state.duration.components.seconds)
        state.mode = .playing(progress: min(1, progress + 0.5 / max(seconds, 0.5)))
        return .none
      }
    }
  }
}
