import Architecture

/// A journal page editor that saves a second after the last edit, as SyncUps saves its sync-ups:
/// every action restarts the debounced save of the whole journal, past pages and all.
struct JournalEditor: Reducer {
  struct State: Equatable {
    var entry = JournalEntry()
    var pastEntries: [JournalEntry] = []
    var prompt: String?
  }

  enum Action: Equatable {
    case bodyChanged(String)
    case doneButtonTapped
    case entryLoaded(JournalEntry)
    case promptLoaded(String)
    case summaryResponse(TaskResult<String>)
    case task
    case titleChanged(String)
  }

  enum CancelID { case prompt, saveDebounce }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.journalClient) var journal

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .bodyChanged(body):
        state.entry.body = body
        return .none

      case .doneButtonTapped:
        return .run { [entry = state.entry] send in
          await send(.summaryResponse(TaskResult { try await self.journal.summarize(entry) }))
        }

      case let .entryLoaded(entry):
        state.entry = entry
        return .none

      case let .promptLoaded(prompt):
        state.prompt = prompt
        return .none

      case let .summaryResponse(.success(summary)):
        state.entry.summary = summary
        return .none

      case .summaryResponse(.failure):
        return .none

      case .task:
        return .merge(
          .run { send in
            await send(.entryLoaded(try await self.journal.load()))
          },
          .run { send in
            try await withTaskCancellation(id: CancelID.prompt, cancelInFlight: true) {
              await send(.promptLoaded(try await self.journal.prompt()))
            }
          }
        )

      case let .titleChanged(title):
        state.entry.title = title
        return .none
      }
    }
    Reduce { state, _ in
      .run { [journal = state.pastEntries + [state.entry]] _ in
        try await self.clock.sleep(for: .seconds(1))
        try await self.journal.save(JSONEncoder().encode(journal))
      }
      .cancellable(id: CancelID.saveDebounce, cancelInFlight: true)
    }
  }
}
