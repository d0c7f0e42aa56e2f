import Architecture
import Foundation

/// A warehouse floor: bins that pick and restock on their own, a sheet to add bins, an alert
/// to remove one, a dialog to move stock between bins, and deliveries that arrive unasked.
struct Warehouse: Reducer {
  struct State: Equatable {
    var bins: IdentifiedArrayOf<Bin.State> = []
    @PresentationState var destination: Destination.State?
    var log: [Date: String] = [:]
    var selection: Set<UUID> = []
    var shiftStartedAt: Date?
  }

  enum Action: Equatable {
    case addBinButtonTapped
    case bin(id: Bin.State.ID, action: Bin.Action)
    case binSelected(UUID)
    case deliveryArrived(sku: String, quantity: Int)
    case destination(PresentationAction<Destination.Action>)
    case moveButtonTapped(from: UUID, sku: String)
    case removeBinButtonTapped(UUID)
    case shiftStarted
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case addBin(AddBin.State)
      case alert(AlertState<Action.Alert>)
      case move(ConfirmationDialogState<Action.Move>)
    }

    enum Action: Equatable {
      case addBin(AddBin.Action)
      case alert(Alert)
      case move(Move)

      enum Alert: Equatable {
        case confirmRemove(UUID)
      }

      enum Move: Equatable {
        case to(UUID, from: UUID, sku: String)
      }
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.addBin, action: /Action.addBin) {
        AddBin()
      }
    }
  }

  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addBinButtonTapped:
        state.destination = .addBin(AddBin.State())
        return .none

      case .bin:
        return .none

      case let .binSelected(id):
        if state.selection.remove(id) == nil { state.selection.insert(id) }
        return .none

      case let .deliveryArrived(sku, quantity):
        // A delivery fills the emptiest bins first.
        var left = quantity
        let emptiestFirst = state.bins.sorted {
          $0.stock.values.reduce(0, +) < $1.stock.values.reduce(0, +)
        }
        for id in emptiestFirst.map(\.id) {
          guard left > 0, let bin = state.bins[id: id] else { break }
          let room = bin.capacity - bin.stock.values.reduce(0, +)
          guard room > 0 else { continue }
          let put = min(room, left)
          state.bins[id: id]?.stock[sku, default: 0] += put
          left -= put
        }
        state.log[now] = left > 0 ? "\(left) \(sku) turned away" : "\(quantity) \(sku) stored"
        return .none

      case let .destination(.presented(.addBin(.delegate(.save(label, capacity))))):
        state.bins.append(Bin.State(id: uuid(), capacity: capacity, label: label))
        return .none

      case let .destination(.presented(.alert(.confirmRemove(id)))):
        state.bins.remove(id: id)
        state.selection.remove(id)
        return .none

      case let .destination(.presented(.move(.to(target, source, sku)))):
        guard let count = state.bins[id: source]?.stock[sku], count > 0 else { return .none }
        state.bins[id: source]?.stock[sku] = nil
        state.bins[id: target]?.stock[sku, default: 0] += count
        state.log[now] = "moved \(count) \(sku)"
        return .none

      case .destination:
        return .none

      case let .moveButtonTapped(source, sku):
        let targets = state.bins.filter { $0.id != source }
        state.destination = .move(
          ConfirmationDialogState(titleVisibility: .visible) {
            TextState("Move \(sku) to…")
          } actions: {
            for bin in targets {
              ButtonState(action: .to(bin.id, from: source, sku: sku)) { TextState(bin.label) }
            }
            ButtonState(role: .cancel) { TextState("Cancel") }
          })
        return .none

      case let .removeBinButtonTapped(id):
        guard let bin = state.bins[id: id] else { return .none }
        state.destination = .alert(
          AlertState {
            TextState("Remove \(bin.label)?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmRemove(id)) { TextState("Remove") }
            ButtonState(role: .cancel) { TextState("Keep") }
          } message: {
            TextState("\(bin.stock.values.reduce(0, +)) items are still in it.")
          })
        return .none

      case .shiftStarted:
        state.shiftStartedAt = now
        state.log = [:]
        return .none
      }
    }
    .forEach(\.bins, action: /Action.bin(id:action:)) {
      Bin()
    }
    .ifLet(\.$destination, action: /Action.destination) {
      Destination()
    }
  }
}
