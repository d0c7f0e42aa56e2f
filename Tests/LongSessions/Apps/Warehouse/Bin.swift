import Architecture
import Foundation

/// A storage bin: its stock by product, a pick that times itself, and restock orders in flight.
struct Bin: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var capacity: Int
    var label: String
    var lastError: String?
    var onOrder: Set<String> = []
    var pick: Pick?
    var stock: [String: Int] = [:]
  }

  /// A pick in progress: what is being picked and for how long.
  enum Pick: Equatable {
    case paused(sku: String, elapsed: Duration)
    case running(sku: String, elapsed: Duration)
  }

  enum Action: Equatable {
    case pickFinished
    case pickPaused
    case pickStarted(String)
    case pickTicked
    case restockButtonTapped(String)
    case restocked(String, TaskResult<Int>)
  }

  enum CancelID { case pick }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.stockClient) var stockClient

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .pickFinished:
        guard case let .running(sku, _)? = state.pick else { return .cancel(id: CancelID.pick) }
        state.stock[sku, default: 0] -= 1
        if state.stock[sku] == 0 { state.stock[sku] = nil }
        state.pick = nil
        return .cancel(id: CancelID.pick)

      case .pickPaused:
        guard case let .running(sku, elapsed)? = state.pick else { return .none }
        state.pick = .paused(sku: sku, elapsed: elapsed)
        return .cancel(id: CancelID.pick)

      case let .pickStarted(sku):
        guard (state.stock[sku] ?? 0) > 0 else {
          state.lastError = "No \(sku) in \(state.label)."
          return .none
        }
        var elapsed = Duration.zero
        if case let .paused(pausedSKU, pausedElapsed)? = state.pick, pausedSKU == sku {
          elapsed = pausedElapsed
        }
        state.lastError = nil
        state.pick = .running(sku: sku, elapsed: elapsed)
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) {
            await send(.pickTicked)
          }
        }
        .cancellable(id: CancelID.pick, cancelInFlight: true)

      case .pickTicked:
        guard case let .running(sku, elapsed)? = state.pick else { return .none }
        state.pick = .running(sku: sku, elapsed: elapsed + .seconds(1))
        return .none

      case let .restockButtonTapped(sku):
        guard state.stock.values.reduce(0, +) < state.capacity else {
          state.lastError = "\(state.label) is full."
          return .none
        }
        state.onOrder.insert(sku)
        let room = state.capacity - state.stock.values.reduce(0, +)
        return .run { send in
          try await self.clock.sleep(for: self.stockClient.deliveryTime(sku))
          await send(.restocked(sku, TaskResult { try await self.stockClient.restock(sku, room) }))
        }

      case let .restocked(sku, .failure(error)):
        state.onOrder.remove(sku)
        state.lastError = error.localizedDescription
        return .none

      case let .restocked(sku, .success(quantity)):
        state.onOrder.remove(sku)
        state.stock[sku, default: 0] += quantity
        return .none
      }
    }
  }
}
