import Architecture

/// The seed picker sheet: pick a crop and the sheet closes itself.
struct SeedPicker: Reducer {
  struct State: Equatable {
    var crops = ["Beans", "Carrots", "Kale", "Squash"]
  }

  enum Action: Equatable {
    case cancelButtonTapped
    case cropTapped(String)
    case delegate(Delegate)

    enum Delegate: Equatable {
      case picked(String)
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .cancelButtonTapped:
        return .run { _ in await self.dismiss() }

      case let .cropTapped(crop):
        return .run { send in
          await send(.delegate(.picked(crop)))
          await self.dismiss()
        }

      case .delegate:
        return .none
      }
    }
  }
}

/// The soil-test popover: a reading taken after a short wait.
struct SoilTest: Reducer {
  struct State: Equatable {
    var isMeasuring = false
    var ph: Double?
  }

  enum Action: Equatable {
    case measureButtonTapped
    case measured(Double)
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .measureButtonTapped:
        state.isMeasuring = true
        return .run { send in
          try await self.clock.sleep(for: .seconds(2))
          await send(.measured(6.5))
        }

      case let .measured(ph):
        state.isMeasuring = false
        state.ph = ph
        return .none
      }
    }
  }
}

/// A bed, drilled into: change the number of plants; done closes it.
struct BedDetail: Reducer {
  struct State: Equatable {
    var bed: Bed
  }

  enum Action: Equatable {
    case decrementButtonTapped
    case delegate(Delegate)
    case doneButtonTapped
    case incrementButtonTapped

    enum Delegate: Equatable {
      case bedChanged(Bed)
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.bed.plants = max(0, state.bed.plants - 1)
        return .send(.delegate(.bedChanged(state.bed)))

      case .delegate:
        return .none

      case .doneButtonTapped:
        return .run { _ in await self.dismiss() }

      case .incrementButtonTapped:
        state.bed.plants += 1
        return .send(.delegate(.bedChanged(state.bed)))
      }
    }
  }
}

/// A planting note in a sheet: typed, then saved or discarded; either closes the sheet.
struct PlantingNote: Reducer {
  struct State: Equatable {
    @BindingState var text = ""
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case delegate(Delegate)
    case discardButtonTapped
    case saveButtonTapped

    enum Delegate: Equatable {
      case save(String)
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding, .delegate:
        return .none

      case .discardButtonTapped:
        return .run { _ in await self.dismiss() }

      case .saveButtonTapped:
        return .run { [text = state.text] send in
          await send(.delegate(.save(text)))
          await self.dismiss()
        }
      }
    }
  }
}
