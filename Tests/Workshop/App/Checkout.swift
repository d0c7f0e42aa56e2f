import Architecture
import Foundation

/// The checkout sheet for a finished repair: pay, and the sheet tells the bench and closes.
struct Checkout: Reducer {
  struct State: Equatable {
    var ticketID: UUID
    var owner: String
    var totalInPence: Int
    var paidAt: Date?
  }

  enum Action: Equatable {
    case cancelButtonTapped
    case delegate(Delegate)
    case payButtonTapped

    enum Delegate: Equatable {
      case paid(UUID)
    }
  }

  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelButtonTapped:
        return .run { _ in await self.dismiss() }

      case .delegate:
        return .none

      case .payButtonTapped:
        state.paidAt = self.now
        let id = state.ticketID
        return .run { send in
          await send(.delegate(.paid(id)))
          await self.dismiss()
        }
      }
    }
  }
}
