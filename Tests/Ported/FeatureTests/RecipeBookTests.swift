import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class RecipeBookTests: XCTestCase {
  let risotto = Recipe(
    id: UUID(0), name: "Mushroom risotto", servings: 4,
    ingredients: ["Arborio rice", "Porcini", "Parmesan"]
  )

  func testAddRecipePushesItsDetail() async {
    let store = TestStore(initialState: RecipeBook.State()) {
      RecipeBook()
        .dependency(\.uuid, .incrementing)
    }

    await store.send(.addRecipeButtonTapped) {
      let recipe = Recipe(id: UUID(0), name: "Untitled dish", servings: 2, ingredients: [])
      $0.recipes = [recipe]
      $0.path[id: 0] = .detail(RecipeDetail.State(recipe: recipe))
    }
  }

  func testTappingARecipeDrillsDown() async {
    let store = TestStore(initialState: RecipeBook.State(recipes: [self.risotto])) {
      RecipeBook()
    }

    await store.send(.recipeTapped(self.risotto.id)) {
      $0.path[id: 0] = .detail(RecipeDetail.State(recipe: self.risotto))
    }
    await store.send(.recipeTapped(UUID(99)))
  }

  func testDeletingFromTheDetailRemovesTheRecipeAndPops() async {
    let store = TestStore(
      initialState: RecipeBook.State(
        path: StackState([.detail(RecipeDetail.State(recipe: self.risotto))]),
        recipes: [self.risotto]
      )
    ) {
      RecipeBook()
    }

    await store.send(.path(.element(id: 0, action: .detail(.deleteButtonTapped)))) {
      $0.path[id: 0, case: /RecipeBook.Path.State.detail]?.alert =
        .deleteRecipe(named: "Mushroom risotto")
    }
    await store.send(.path(.element(id: 0, action: .detail(.alert(.presented(.confirmDeletion)))))) {
      XCTModify(&$0.path[id: 0], case: /RecipeBook.Path.State.detail) {
        $0.alert = nil
      }
    }
    await store.receive(.path(.element(id: 0, action: .detail(.delegate(.deleteRecipe(UUID(0))))))) {
      $0.recipes = []
    }
    await store.receive(.path(.popFrom(id: 0))) {
      $0.path = StackState()
    }
  }

  func testCancellingTheDeleteAlertKeepsTheRecipe() async {
    var detail = RecipeDetail.State(recipe: self.risotto)
    detail.alert = .deleteRecipe(named: self.risotto.name)
    let store = TestStore(
      initialState: RecipeBook.State(path: StackState([.detail(detail)]), recipes: [self.risotto])
    ) {
      RecipeBook()
    }

    await store.send(.path(.element(id: 0, action: .detail(.alert(.dismiss))))) {
      $0.path[id: 0, case: /RecipeBook.Path.State.detail]?.alert = nil
    }
    XCTAssertNoDifference(store.state.recipes.map(\.name), ["Mushroom risotto"])
  }

  func testChangingServingsUpdatesTheList() async {
    let store = TestStore(
      initialState: RecipeBook.State(
        path: StackState([.detail(RecipeDetail.State(recipe: self.risotto))]),
        recipes: [self.risotto]
      )
    ) {
      RecipeBook()
    }

    await store.send(.path(.element(id: 0, action: .detail(.servingsStepperChanged(0))))) {
      $0.path[id: 0, case: /RecipeBook.Path.State.detail]?.recipe.servings = 1
    }
    var updated = self.risotto
    updated.servings = 1
    await store.receive(.path(.element(id: 0, action: .detail(.delegate(.recipeUpdated(updated)))))) {
      $0.recipes[id: UUID(0)]?.servings = 1
    }
  }

  func testShoppingListIsPushedOnTopAndChecksItems() async {
    let store = TestStore(
      initialState: RecipeBook.State(
        path: StackState([.detail(RecipeDetail.State(recipe: self.risotto))]),
        recipes: [self.risotto]
      )
    ) {
      RecipeBook()
    }

    await store.send(.path(.element(id: 0, action: .detail(.shoppingListButtonTapped))))
    await store.receive(
      .path(.element(id: 0, action: .detail(.delegate(.showShoppingList(self.risotto.ingredients)))))
    ) {
      $0.path[id: 1] = .shopping(ShoppingList.State(items: self.risotto.ingredients))
    }
    await store.send(.path(.element(id: 1, action: .shopping(.itemToggled("Porcini"))))) {
      XCTModify(&$0.path[id: 1], case: /RecipeBook.Path.State.shopping) {
        $0.checked = ["Porcini"]
      }
    }
    XCTAssertEqual(store.state.path[id: 1, case: /RecipeBook.Path.State.shopping]?.remaining, 2)

    await store.send(.path(.popFrom(id: 1))) {
      $0.path.removeLast()
    }
    await store.send(.path(.push(id: 2, state: .shopping(ShoppingList.State(items: ["Salt"]))))) {
      $0.path[id: 2] = .shopping(ShoppingList.State(items: ["Salt"]))
    }
  }
}
