import Architecture
import Foundation

/// A bicycle repair workshop's bench: bikes come in as tickets up to the bench's size (an
/// alert says when it is full), a parts quote opens for one of them, and a finished repair is
/// paid for in a checkout sheet.
struct Workshop: Reducer {
  /// How many bikes fit on the bench at once.
  let benchSize: Int
  /// What an hour of a mechanic's time costs.
  let hourlyRateInPence: Int

  struct State: Equatable {
    @PresentationState var destination: Destination.State?
    var openedAt: Date?
    var quote: PartsQuote.State?
    var tickets: IdentifiedArrayOf<RepairTicket.State> = []
    var ticketsPaid = 0
  }

  enum Action: Equatable {
    case bikeDroppedOff(owner: String, bike: String)
    case destination(PresentationAction<Destination.Action>)
    case quote(PartsQuote.Action)
    case quoteButtonTapped(id: RepairTicket.State.ID)
    case quoteClosed
    case ticket(id: RepairTicket.State.ID, action: RepairTicket.Action)

    /// The bench-full alert only informs: its one button dismisses it.
    enum Alert: Equatable {}
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case benchFull(AlertState<Workshop.Action.Alert>)
      case checkout(Checkout.State)
    }

    enum Action: Equatable {
      case benchFull(Workshop.Action.Alert)
      case checkout(Checkout.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.checkout, action: /Action.checkout) {
        Checkout()
      }
    }
  }

  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .bikeDroppedOff(owner, bike):
        guard state.tickets.count < self.benchSize else {
          state.destination = .benchFull(
            AlertState {
              TextState("The bench is full")
            } message: {
              TextState("\(owner)'s \(bike) has to wait: \(self.benchSize) bikes are in.")
            }
          )
          return .none
        }
        if state.openedAt == nil { state.openedAt = self.now }
        state.tickets.append(RepairTicket.State(id: self.uuid(), owner: owner, bike: bike))
        return .none

      case let .destination(.presented(.checkout(.delegate(.paid(id))))):
        state.tickets.remove(id: id)
        state.ticketsPaid += 1
        return .none

      case .destination:
        return .none

      case .quote:
        return .none

      case let .quoteButtonTapped(id):
        state.quote = PartsQuote.State(ticketID: id)
        return .none

      case .quoteClosed:
        state.quote = nil
        return .none

      case let .ticket(id, .doneButtonTapped):
        guard let ticket = state.tickets[id: id] else { return .none }
        state.destination = .checkout(
          Checkout.State(
            ticketID: id, owner: ticket.owner,
            totalInPence: ticket.minutesWorked * self.hourlyRateInPence / 60
          )
        )
        return .none

      case .ticket:
        return .none
      }
    }
    .forEach(\.tickets, action: /Action.ticket(id:action:)) {
      RepairTicket()
    }
    .ifLet(\.quote, action: /Action.quote) {
      PartsQuote()
    }
    .ifLet(\.$destination, action: /Action.destination) {
      Destination()
    }
  }
}
