import Architecture
import Foundation

/// A quote for a part, looked up in the supplier's catalogue; a part it does not stock fails.
struct PartsQuote: Reducer {
  struct State: Equatable {
    var ticketID: UUID
    var part = ""
    var isLookingUp = false
    var priceInPence: Int?
    var failure: String?
  }

  enum Action: Equatable {
    case lookUpButtonTapped
    case partChanged(String)
    case priceResponse(TaskResult<Int>)
  }

  @Dependency(\.partsCatalog) var catalog

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .lookUpButtonTapped:
        state.isLookingUp = true
        state.failure = nil
        let part = state.part
        return .run { send in
          await send(.priceResponse(TaskResult { try await self.catalog.price(part) }))
        }

      case let .partChanged(part):
        state.part = part
        state.priceInPence = nil
        return .none

      case let .priceResponse(.success(price)):
        state.isLookingUp = false
        state.priceInPence = price
        return .none

      case let .priceResponse(.failure(error)):
        state.isLookingUp = false
        state.failure = error.localizedDescription
        return .none
      }
    }
  }
}

/// Why the supplier could not quote a part.
struct PartNotStocked: LocalizedError, Equatable {
  var part: String

  var errorDescription: String? { "The supplier does not stock \(part)." }
}

/// The supplier's catalogue of parts and their prices.
struct PartsCatalog: Sendable {
  var price: @Sendable (_ part: String) async throws -> Int
}

extension PartsCatalog: DependencyKey {
  static let liveValue = PartsCatalog(
    price: { part in
      let prices = ["brake pads": 1_250, "chain": 2_199, "inner tube": 699]
      guard let price = prices[part.lowercased()] else { throw PartNotStocked(part: part) }
      return price
    }
  )

  static let testValue = PartsCatalog(price: unimplemented("PartsCatalog.price"))
}

extension DependencyValues {
  var partsCatalog: PartsCatalog {
    get { self[PartsCatalog.self] }
    set { self[PartsCatalog.self] = newValue }
  }
}
