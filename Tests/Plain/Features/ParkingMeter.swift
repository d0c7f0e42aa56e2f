import Architecture
import Foundation

/// Why a card payment was declined.
enum PaymentError: LocalizedError, Equatable {
  case cardDeclined
  case meterOffline

  var errorDescription: String? {
    switch self {
    case .cardDeclined: return "The card was declined."
    case .meterOffline: return "The meter cannot reach the bank."
    }
  }
}

/// Charges cards for parking time.
struct PaymentClient {
  var charge: @Sendable (_ cents: Int) async throws -> String
}

extension PaymentClient: DependencyKey {
  static let liveValue = PaymentClient(charge: { cents in
    guard cents <= 2_000 else { throw PaymentError.cardDeclined }
    return "receipt-\(cents)"
  })
  static let testValue = PaymentClient(charge: unimplemented("PaymentClient.charge"))
}

extension DependencyValues {
  var paymentClient: PaymentClient {
    get { self[PaymentClient.self] }
    set { self[PaymentClient.self] = newValue }
  }
}

/// A parking meter: buy minutes, pay by card (which may be declined, shown as the error says),
/// then watch the paid minutes count down on a timer until they run out.
struct ParkingMeter: Reducer {
  struct State: Equatable {
    /// Whether paying again may work: not after the bank has declined the card.
    var canRetry = true
    var isPaying = false
    var minutesSelected = 0
    var paidAt: Date?
    var paymentError: String?
    @PresentationState var receipt: ConfirmationDialogState<Action.Receipt>?
    var minutesLeft = 0

    var isRunning: Bool { minutesLeft > 0 }
  }

  enum Action: Equatable {
    case addMinutesButtonTapped
    case chargeResponse(TaskResult<String>)
    case payButtonTapped
    case receipt(PresentationAction<Receipt>)
    case resetButtonTapped
    case timerTicked

    /// The receipt is only read; its sole button closes it.
    enum Receipt: Equatable {}
  }

  enum CancelID { case payment, timer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.paymentClient) var paymentClient

  static let centsPerMinute = 5

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addMinutesButtonTapped:
        state.minutesSelected += 15
        return .none

      case let .chargeResponse(.failure(error)):
        state.isPaying = false
        state.canRetry = (error as? PaymentError) != .cardDeclined
        state.paymentError = error.localizedDescription
        return .none

      case let .chargeResponse(.success(receipt)):
        state.isPaying = false
        state.paidAt = self.now
        state.minutesLeft += state.minutesSelected
        state.minutesSelected = 0
        state.receipt = ConfirmationDialogState(titleVisibility: .visible) {
          TextState("Paid")
        } actions: {
          ButtonState(role: .cancel) { TextState("Done") }
        } message: {
          TextState("Receipt \(receipt)")
        }
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(60)) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)

      case .payButtonTapped:
        guard state.minutesSelected > 0, state.canRetry else { return .none }
        state.isPaying = true
        state.paymentError = nil
        return .run { [cents = state.minutesSelected * Self.centsPerMinute] send in
          await send(.chargeResponse(TaskResult { try await self.paymentClient.charge(cents) }))
        }
        .cancellable(id: CancelID.payment)

      case .receipt:
        return .none

      case .resetButtonTapped:
        state = State()
        return .merge(.cancel(id: CancelID.payment), .cancel(id: CancelID.timer))

      case .timerTicked:
        state.minutesLeft = max(0, state.minutesLeft - 1)
        return state.minutesLeft == 0 ? .cancel(id: CancelID.timer) : .none
      }
    }
    .ifLet(\.$receipt, action: /Action.receipt)
  }
}
