import Architecture

/// The planner's root: a list of recipes with a navigation stack of details and shopping lists.
struct RecipeBook: Reducer {
  struct State: Equatable, Codable {
    var path = StackState<Path.State>()
    var recipes: IdentifiedArrayOf<Recipe> = []
  }

  enum Action: Equatable, Codable {
    case addRecipeButtonTapped
    case path(StackAction<Path.State, Path.Action>)
    case recipeTapped(Recipe.ID)
  }

  struct Path: Reducer {
    enum State: Equatable, Codable {
      case detail(RecipeDetail.State)
      case shopping(ShoppingList.State)
    }

    enum Action: Equatable, Codable {
      case detail(RecipeDetail.Action)
      case shopping(ShoppingList.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.detail, action: /Action.detail) {
        RecipeDetail()
      }
      Scope(state: /State.shopping, action: /Action.shopping) {
        ShoppingList()
      }
    }
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addRecipeButtonTapped:
        let recipe = Recipe(id: self.uuid(), name: "Untitled dish", servings: 2, ingredients: [])
        state.recipes.append(recipe)
        state.path.append(.detail(RecipeDetail.State(recipe: recipe)))
        return .none

      case let .path(.element(id: _, action: .detail(.delegate(.deleteRecipe(id))))):
        state.recipes.remove(id: id)
        return .none

      case let .path(.element(id: _, action: .detail(.delegate(.recipeUpdated(recipe))))):
        state.recipes[id: recipe.id] = recipe
        return .none

      case let .path(.element(id: _, action: .detail(.delegate(.showShoppingList(items))))):
        state.path.append(.shopping(ShoppingList.State(items: items)))
        return .none

      case .path:
        return .none

      case let .recipeTapped(id):
        guard let recipe = state.recipes[id: id] else { return .none }
        state.path.append(.detail(RecipeDetail.State(recipe: recipe)))
        return .none
      }
    }
    .forEach(\.path, action: /Action.path) {
      Path()
    }
  }
}
