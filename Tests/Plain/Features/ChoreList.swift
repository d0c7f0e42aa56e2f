import Architecture
import Foundation

/// Whether the list is being rearranged; the app's own, as SwiftUI's `EditMode` is not on Linux.
enum ListEditMode: Equatable {
  case active
  case inactive
}

/// The household's chores: add, tick off, swipe to delete, drag to reorder in edit mode, filter,
/// and clear the done ones. Ticked chores sink to the bottom once ticking stops for a second.
struct ChoreList: Reducer {
  enum Filter: Equatable, CaseIterable {
    case all
    case done
    case open
  }

  struct State: Equatable {
    var chores: IdentifiedArrayOf<Chore.State> = []
    @BindingState var editMode: ListEditMode = .inactive
    @BindingState var filter: Filter = .all

    var visibleChores: IdentifiedArrayOf<Chore.State> {
      chores.filter {
        switch filter {
        case .all: return true
        case .done: return $0.isDone
        case .open: return !$0.isDone
        }
      }
    }
  }

  enum Action: BindableAction, Equatable {
    case addChoreButtonTapped
    case binding(BindingAction<State>)
    case chore(id: Chore.State.ID, action: Chore.Action)
    case clearDoneButtonTapped
    case delete(IndexSet)
    case move(IndexSet, Int)
    case sortDoneChores
  }

  enum CancelID { case sort }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addChoreButtonTapped:
        state.chores.insert(Chore.State(id: self.uuid(), addedAt: self.now), at: 0)
        return .none

      case .binding:
        return .none

      case .chore(id: _, action: .binding(\.$isDone)):
        return .run { send in
          try await self.clock.sleep(for: .seconds(1))
          await send(.sortDoneChores, animation: .default)
        }
        .cancellable(id: CancelID.sort, cancelInFlight: true)

      case .chore:
        return .none

      case .clearDoneButtonTapped:
        state.chores.removeAll(where: \.isDone)
        return .none

      case let .delete(offsets):
        let visible = state.visibleChores
        for index in offsets {
          state.chores.remove(id: visible[index].id)
        }
        return .none

      case var .move(source, destination):
        if state.filter != .all {
          // Offsets count visible rows; translate them into the whole list's.
          let visible = state.visibleChores
          source = IndexSet(
            source.map { visible[$0] }.compactMap { state.chores.index(id: $0.id) }
          )
          destination =
            (destination < visible.endIndex
              ? state.chores.index(id: visible[destination].id)
              : state.chores.endIndex) ?? destination
        }
        state.chores.move(fromOffsets: source, toOffset: destination)
        return .run { send in
          try await self.clock.sleep(for: .milliseconds(100))
          await send(.sortDoneChores)
        }

      case .sortDoneChores:
        state.chores.sort { !$0.isDone && $1.isDone }
        return .none
      }
    }
    .forEach(\.chores, action: /Action.chore(id:action:)) {
      Chore()
    }
  }
}
