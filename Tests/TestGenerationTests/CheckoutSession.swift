import Architecture
import Foundation
import Recorder

@testable import Shapes
import TestSupport

/// Records a shop session (`Tests/Shapes/CheckoutFeature.swift`) with the card number redacted
/// (`.key("cardNumber")`): a cart filled and reordered, a checkout whose card is typed, cleared
/// and scanned while the cart is still edited, an order placed and its card kept, then a second
/// cart, and the kept card removed. The tests record it afresh each run.
enum CheckoutSession {
  typealias Line = CheckoutFeature.CartLine

  static let actions: [CheckoutFeature.Action] = [
    .added(Line(id: 1, name: "Kettle", quantity: 1, cents: 3_500)),
    .added(Line(id: 2, name: "Tea, 250 g", quantity: 2, cents: 900)),
    .added(Line(id: 3, name: "Mugs", quantity: 4, cents: 650)),
    .moved(from: 0, to: 3),
    .quantityChanged(id: 2, quantity: 3),
    .giftNoteAdded("Happy birthday!"),
    .moved(from: 2, to: 0),
    .checkoutTapped,
    .payment(.set(\.$cardholder, "Ada Lovelace")),
    .giftNoteAdded("Wrap it, please"),
    .payment(.set(\.$cardNumber, "4000 1234 5678 9010")),
    .payment(.set(\.$savesCard, true)),
    .payment(.cardCleared),
    .moved(from: 2, to: 0),
    .payment(.cardScanned(cardNumber: "5500 0000 0000 0004")),
    .payment(.set(\.$savesCard, true)),
    .payment(.placeOrderTapped),
    .added(Line(id: 4, name: "Teapot", quantity: 1, cents: 2_800)),
    .giftNoteAdded("For the office"),
    .added(Line(id: 5, name: "Strainer", quantity: 1, cents: 400)),
    .moved(from: 1, to: 0),
    .removed(id: 4),
    .savedCardRemoved(id: 1),
    .giftNoteAdded("Thank you"),
  ]

  /// Records the session into `path`.
  @MainActor
  static func record(to path: String) throws {
    let recorder = try TraceRecorder(
      path: path, options: .init(keyframeInterval: 0, redactions: [.key("cardNumber")]))
    let store = Store(initialState: CheckoutFeature.State()) {
      CheckoutFeature().recording(to: recorder)
    }
    for action in actions { store.send(action) }
    try recorder.close()
  }

  /// Records the session into a new temporary file and returns its path.
  @MainActor
  static func recordFresh() throws -> String {
    let directory = Scratch.url("checkout")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("checkout.ndjson").path
    try record(to: path)
    return path
  }
}
