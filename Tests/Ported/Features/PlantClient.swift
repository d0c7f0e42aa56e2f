import Architecture

/// A plant in the nursery's catalogue.
struct Plant: Equatable, Identifiable {
  var id: Int
  var commonName: String
  var latinName: String
}

/// Looks plants up by name.
struct PlantClient {
  var search: @Sendable (_ query: String) async throws -> [Plant]
}

extension PlantClient: DependencyKey {
  static let liveValue = PlantClient(
    search: { query in
      let catalogue = [
        Plant(id: 1, commonName: "Maidenhair fern", latinName: "Adiantum capillus-veneris"),
        Plant(id: 2, commonName: "Rosemary", latinName: "Salvia rosmarinus"),
        Plant(id: 3, commonName: "Snake plant", latinName: "Dracaena trifasciata"),
      ]
      return catalogue.filter { $0.commonName.lowercased().contains(query.lowercased()) }
    }
  )

  static let testValue = PlantClient(
    search: unimplemented("PlantClient.search")
  )
}

extension DependencyValues {
  var plantClient: PlantClient {
    get { self[PlantClient.self] }
    set { self[PlantClient.self] = newValue }
  }
}
