import Architecture

/// A bird-count form bound straight to state: a species name, a count kept in range, the
/// weather picked from an enum, and a rarity toggle that asks for notes.
struct BirdLog: Reducer {
  enum Weather: Equatable, CaseIterable {
    case clear
    case overcast
    case rain
    case wind
  }

  struct State: Equatable {
    @BindingState var count = 1
    @BindingState var isRare = false
    @BindingState var notes = ""
    var notesPrompt: String?
    var savedEntries: [String] = []
    @BindingState var species = ""
    @BindingState var weather: Weather = .clear

    var canSave: Bool { !species.isEmpty && (!isRare || !notes.isEmpty) }
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case resetButtonTapped
    case saveButtonTapped
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.weather) { _, weather in
        Reduce { state, _ in
          // Nobody counts a flock through the rain: a rainy sighting starts from one bird.
          if weather == .rain { state.count = 1 }
          return .none
        }
      }

    Reduce { state, action in
      switch action {
      case .binding(\.$count):
        state.count = min(max(state.count, 1), 999)
        return .none

      case .binding(\.$isRare):
        state.notesPrompt = state.isRare ? "Describe the field marks you saw." : nil
        return .none

      case .binding:
        return .none

      case .resetButtonTapped:
        state = State(savedEntries: state.savedEntries)
        return .none

      case .saveButtonTapped:
        guard state.canSave else { return .none }
        state.savedEntries.append("\(state.count) × \(state.species) (\(state.weather))")
        state.species = ""
        state.count = 1
        state.isRare = false
        state.notes = ""
        state.notesPrompt = nil
        return .none
      }
    }
  }
}
