import Architecture
import Foundation

/// A harbour with a tide gauge.
struct Harbor: Equatable, Identifiable {
  var id: Int
  var name: String
  var region: String
}

/// The next high and low water at a harbour, in metres.
struct TideForecast: Equatable {
  var highWater: Double
  var lowWater: Double
}

/// Why the tide service could not answer.
struct TideServiceError: LocalizedError, Equatable {
  var harbor: String

  var errorDescription: String? { "No tide gauge reports from \(harbor)." }
}

/// Finds harbours by name and fetches their tides.
struct TideClient {
  var forecast: @Sendable (_ harbor: Harbor) async throws -> TideForecast
  var search: @Sendable (_ query: String) async throws -> [Harbor]
}

extension TideClient: DependencyKey {
  static let liveValue = TideClient(
    forecast: { harbor in
      guard harbor.id != 3 else { throw TideServiceError(harbor: harbor.name) }
      return TideForecast(highWater: 4.2 + Double(harbor.id) / 10, lowWater: 0.6)
    },
    search: { query in
      [
        Harbor(id: 1, name: "Portsmouth", region: "Hampshire"),
        Harbor(id: 2, name: "Port Isaac", region: "Cornwall"),
        Harbor(id: 3, name: "Portree", region: "Skye"),
        Harbor(id: 4, name: "Whitby", region: "Yorkshire"),
      ]
      .filter { $0.name.lowercased().hasPrefix(query.lowercased()) }
    }
  )

  static let testValue = TideClient(
    forecast: unimplemented("TideClient.forecast"),
    search: unimplemented("TideClient.search")
  )
}

extension DependencyValues {
  var tideClient: TideClient {
    get { self[TideClient.self] }
    set { self[TideClient.self] = newValue }
  }
}
