import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Pantry tabs")
struct PantryTabsTests {
  @Test("using up stock on the shelf tab puts it on the shopping tab's list")
  func sharedStock() async {
    let store = TestStore(initialState: PantryTabs.State()) {
      PantryTabs()
    }

    await store.send(.shelf(.useButtonTapped("Rice"))) {
      $0.stock["Rice"] = 0
    }
    #expect(store.state.shopping.list == ["Eggs", "Rice"])
    await store.send(.set(\.$selectedTab, .shopping)) {
      $0.selectedTab = .shopping
    }
    await store.send(.shopping(.boughtButtonTapped("Eggs"))) {
      $0.stock["Eggs"] = 1
      $0.boughtCount = 1
    }
    await store.send(.shopping(.boughtButtonTapped("Flour")))
    await store.send(.shopping(.buyEverythingButtonTapped)) {
      $0.stock["Rice"] = 1
      $0.boughtCount = 2
    }
    #expect(store.state.shelf.stock == ["Flour": 2, "Eggs": 1, "Rice": 1])
  }

  @Test("restocking an unknown item adds it")
  func restock() async {
    let store = TestStore(initialState: PantryTabs.State()) {
      PantryTabs()
    }

    await store.send(.shelf(.restockButtonTapped("Lentils"))) {
      $0.stock["Lentils"] = 1
    }
  }
}
