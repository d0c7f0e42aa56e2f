import Architecture
import Foundation

/// Why the supplier could not restock.
struct SupplierError: LocalizedError, Equatable {
  var sku: String

  var errorDescription: String? { "The supplier has no \(sku) left." }
}

/// The supplier: orders more of a product, which arrives after a delivery time.
struct StockClient {
  var deliveryTime: @Sendable (_ sku: String) -> Duration
  var restock: @Sendable (_ sku: String, _ quantity: Int) async throws -> Int
}

extension StockClient: DependencyKey {
  static let liveValue = StockClient(
    deliveryTime: { sku in .seconds(2 + sku.count % 3) },
    restock: { sku, quantity in
      guard !sku.hasPrefix("X") else { throw SupplierError(sku: sku) }
      return quantity
    }
  )

  static let testValue = StockClient(
    deliveryTime: unimplemented("StockClient.deliveryTime", placeholder: .zero),
    restock: unimplemented("StockClient.restock")
  )
}

extension DependencyValues {
  var stockClient: StockClient {
    get { self[StockClient.self] }
    set { self[StockClient.self] = newValue }
  }
}
