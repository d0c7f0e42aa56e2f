import Architecture

/// The sheet that adds a bin: a label and a capacity, saved or cancelled.
struct AddBin: Reducer {
  struct State: Equatable {
    @BindingState var capacity = 10
    @BindingState var label = ""
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case cancelButtonTapped
    case delegate(Delegate)
    case saveButtonTapped

    enum Delegate: Equatable {
      case save(label: String, capacity: Int)
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding, .delegate:
        return .none

      case .cancelButtonTapped:
        return .run { _ in await self.dismiss() }

      case .saveButtonTapped:
        let label = state.label
        let capacity = state.capacity
        return .run { send in
          await send(.delegate(.save(label: label, capacity: capacity)))
          await self.dismiss()
        }
      }
    }
  }
}
