import Architecture
import Foundation

/// One household chore, a row of ``ChoreList``.
struct Chore: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var addedAt: Date
    @BindingState var isDone = false
    @BindingState var title = ""
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}
