import Architecture

/// A shop's cart and its checkout, in a shape the examples do not have: a payment form that
/// exists only while checking out (an optional child run with `ifLet`), whose card number is a
/// `@BindingState` the trace redacts with `.key("cardNumber")`, next to a cart the user
/// reorders, and cards kept for next time. The reducer stores the card number, copies it and
/// clears it, but never looks at it: a generated test can give it a placeholder. What the
/// generator's redaction and exhaustivity tests record.
struct CheckoutFeature: Reducer {
  struct State: Equatable, Codable {
    var cart: IdentifiedArrayOf<CartLine> = []
    /// Notes for the gift card, in the order written: a plain array.
    var giftNotes: [String] = []
    var shipping: Shipping = .standard
    /// The payment form, while checking out.
    var payment: PaymentFeature.State?
    /// The numbers of the orders placed, newest last.
    var orders: [Int] = []
    /// Cards kept for next time, number and all: redacted in a trace with the rest.
    var savedCards: IdentifiedArrayOf<SavedCard> = []
  }

  struct SavedCard: Equatable, Codable, Identifiable {
    let id: Int
    var cardholder: String
    var cardNumber: String
  }

  struct CartLine: Equatable, Codable, Identifiable {
    var id: Int
    var name: String
    var quantity: Int
    var cents: Int
  }

  enum Shipping: Equatable, Codable {
    case standard
    case express(days: Int)
  }

  enum Action: Equatable, Codable {
    case added(CartLine)
    case moved(from: Int, to: Int)
    case quantityChanged(id: Int, quantity: Int)
    case removed(id: Int)
    case giftNoteAdded(String)
    case shippingPicked(Shipping)
    case checkoutTapped
    case savedCardRemoved(id: Int)
    case payment(PaymentFeature.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .added(line):
        state.cart.append(line)
      case let .moved(from, to):
        state.cart.move(fromOffsets: [from], toOffset: to)
      case let .quantityChanged(id, quantity):
        state.cart[id: id]?.quantity = quantity
      case let .removed(id):
        state.cart.remove(id: id)
      case let .giftNoteAdded(note):
        state.giftNotes.append(note)
      case let .shippingPicked(shipping):
        state.shipping = shipping
      case .checkoutTapped:
        let total = state.cart.reduce(0) { $0 + $1.quantity * $1.cents }
        state.payment = PaymentFeature.State(totalCents: total)
      case let .savedCardRemoved(id):
        state.savedCards.remove(id: id)
      case .payment(.placeOrderTapped):
        // The order number comes from the cart, never from the card, which is kept as it is.
        state.orders.append(1_000 + state.orders.count)
        if let payment = state.payment, payment.savesCard {
          state.savedCards.append(
            SavedCard(
              id: state.orders.count, cardholder: payment.cardholder,
              cardNumber: payment.cardNumber))
        }
        state.cart.removeAll()
        state.giftNotes.removeAll()
        state.payment = nil
      case .payment:
        break
      }
      return .none
    }
    .ifLet(\.payment, action: /Action.payment) {
      PaymentFeature()
    }
  }
}

/// The payment form: typed fields, a card scanned by the camera, and the button that places
/// the order. It keeps the card number until the order is placed, and reads it nowhere.
struct PaymentFeature: Reducer {
  struct State: Equatable, Codable {
    var totalCents: Int
    @BindingState var cardholder = ""
    @BindingState var cardNumber = ""
    @BindingState var savesCard = false
    var isPlacingOrder = false

    init(totalCents: Int) {
      self.totalCents = totalCents
    }
  }

  enum Action: BindableAction, Equatable, Codable {
    case binding(BindingAction<State>)
    /// The camera read a card: its number lands in the form as if typed.
    case cardScanned(cardNumber: String)
    case cardCleared
    case placeOrderTapped
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        break
      case let .cardScanned(cardNumber):
        state.cardNumber = cardNumber
      case .cardCleared:
        state.cardNumber = ""
        state.savesCard = false
      case .placeOrderTapped:
        state.isPlacingOrder = true
      }
      return .none
    }
  }
}
