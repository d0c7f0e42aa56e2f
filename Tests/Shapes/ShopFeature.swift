import Architecture
import Foundation

/// A shop, in the shapes real apps have and the examples do not: quantities keyed by a
/// `ProductID` that is not a `String` (so `Codable` writes the dictionary as a flat array of
/// keys and values), a checkout `Duration`, a `Date`, UUID ids from the dependency, an optional
/// coupon, sets, and enums nested in enums.
struct ShopFeature: Reducer {
  /// A product's id: encoded as its raw value, and written in tests as an integer literal.
  struct ProductID: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByIntegerLiteral {
    var rawValue: Int
    init(rawValue: Int) { self.rawValue = rawValue }
    init(integerLiteral value: Int) { self.rawValue = value }
  }

  struct State: Equatable, Codable {
    var cart = Cart()
    var elapsed: Duration = .zero
    var openedAt: Date?
    var coupon: Coupon?
    var favourites: Set<ProductID> = []
    var orders: IdentifiedArrayOf<Order> = []
    var phase: Phase = .browsing
  }

  struct Cart: Equatable, Codable {
    var quantities: [ProductID: Int] = [:]
    var notes: [Int: String] = [:]
  }

  struct Coupon: Equatable, Codable {
    var code: String
    var percent: Int
  }

  struct Order: Equatable, Codable, Identifiable {
    var id: UUID
    var items: [ProductID: Int]
    var status: Status
  }

  enum Status: Equatable, Codable {
    case placed
    case shipped(carrier: Carrier)
    case cancelled(reason: String)
  }

  enum Carrier: String, Equatable, Codable {
    case post, courier
  }

  enum Phase: Equatable, Codable {
    case browsing
    case checkingOut(Payment)
  }

  enum Payment: Equatable, Codable {
    case card(last4: String)
    case invoice
  }

  enum Action: Equatable, Codable {
    case added(ProductID)
    case removed(ProductID)
    case noted(ProductID, String)
    case ticked
    case opened
    case couponApplied(Coupon?)
    case favourited(ProductID)
    case checkoutStarted(Payment)
    case orderPlaced
    case shipped(UUID, Carrier)
    case cancelled(UUID, reason: String)
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .added(id): state.cart.quantities[id, default: 0] += 1
    case let .removed(id):
      state.cart.quantities[id] = (state.cart.quantities[id] ?? 0) > 1
        ? state.cart.quantities[id]! - 1 : nil
    case let .noted(id, note): state.cart.notes[id.rawValue] = note
    case .ticked: state.elapsed += .milliseconds(2310)
    case .opened: state.openedAt = now
    case let .couponApplied(coupon): state.coupon = coupon
    case let .favourited(id):
      if state.favourites.remove(id) == nil { state.favourites.insert(id) }
    case let .checkoutStarted(payment): state.phase = .checkingOut(payment)
    case .orderPlaced:
      state.orders.append(Order(id: uuid(), items: state.cart.quantities, status: .placed))
      state.cart.quantities = [:]
      state.phase = .browsing
    case let .shipped(id, carrier): state.orders[id: id]?.status = .shipped(carrier: carrier)
    case let .cancelled(id, reason): state.orders[id: id]?.status = .cancelled(reason: reason)
    }
    return .none
  }
}

/// A shop session: fills the cart, times the checkout, applies and drops a coupon, places,
/// ships and cancels orders.
let shopSession: [ShopFeature.Action] = [
  .opened, .added(13), .added(13), .added(7), .noted(13, "gift wrap"), .ticked, .ticked,
  .ticked, .favourited(7), .favourited(13), .couponApplied(.init(code: "SPRING", percent: 10)),
  .removed(7), .checkoutStarted(.card(last4: "4242")), .orderPlaced, .added(21),
  .favourited(7), .couponApplied(nil), .shipped(UUID(0), .courier), .orderPlaced,
  .cancelled(UUID(1), reason: "changed mind"),
]
