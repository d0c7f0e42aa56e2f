import Architecture

/// A garden bed planner presenting every kind of destination from one `Destination` enum: a
/// seed picker sheet, a soil-test popover, a drill-down into a bed, and an alert; plus a
/// planting note in a sheet of its own.
struct GardenPlanner: Reducer {
  struct State: Equatable {
    var beds: IdentifiedArrayOf<Bed> = []
    @PresentationState var destination: Destination.State?
    @PresentationState var note: PlantingNote.State?
    var notes: [String] = []
  }

  enum Action: Equatable {
    case addBedButtonTapped
    case bedTapped(Bed.ID)
    case destination(PresentationAction<Destination.Action>)
    case note(PresentationAction<PlantingNote.Action>)
    case noteButtonTapped
    case removeAllButtonTapped
    case soilTestButtonTapped
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case alert(AlertState<Action.Alert>)
      case bed(BedDetail.State)
      case seedPicker(SeedPicker.State)
      case soilTest(SoilTest.State)
    }

    enum Action: Equatable {
      case alert(Alert)
      case bed(BedDetail.Action)
      case seedPicker(SeedPicker.Action)
      case soilTest(SoilTest.Action)

      enum Alert: Equatable {
        case confirmRemoveAll
      }
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.bed, action: /Action.bed) {
        BedDetail()
      }
      Scope(state: /State.seedPicker, action: /Action.seedPicker) {
        SeedPicker()
      }
      Scope(state: /State.soilTest, action: /Action.soilTest) {
        SoilTest()
      }
    }
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addBedButtonTapped:
        state.destination = .seedPicker(SeedPicker.State())
        return .none

      case let .bedTapped(id):
        guard let bed = state.beds[id: id] else { return .none }
        state.destination = .bed(BedDetail.State(bed: bed))
        return .none

      case .destination(.presented(.alert(.confirmRemoveAll))):
        state.beds = []
        return .none

      case let .destination(.presented(.bed(.delegate(.bedChanged(bed))))):
        state.beds[id: bed.id] = bed
        return .none

      case let .destination(.presented(.seedPicker(.delegate(.picked(crop))))):
        state.beds.append(Bed(id: self.uuid(), crop: crop))
        return .none

      case .destination:
        return .none

      case let .note(.presented(.delegate(.save(text)))):
        state.notes.append(text)
        return .none

      case .note:
        return .none

      case .noteButtonTapped:
        state.note = PlantingNote.State()
        return .none

      case .removeAllButtonTapped:
        state.destination = .alert(
          AlertState {
            TextState("Clear all \(state.beds.count) beds?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmRemoveAll) { TextState("Clear") }
          }
        )
        return .none

      case .soilTestButtonTapped:
        state.destination = .soilTest(SoilTest.State())
        return .none
      }
    }
    .ifLet(\.$destination, action: /Action.destination) {
      Destination()
    }
    .ifLet(\.$note, action: /Action.note) {
      PlantingNote()
    }
  }
}

/// A raised bed and what grows in it.
struct Bed: Equatable, Identifiable {
  let id: UUID
  var crop: String
  var plants = 4
}
