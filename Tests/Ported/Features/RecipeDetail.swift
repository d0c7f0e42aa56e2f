import Architecture

/// One recipe, drilled into from the planner. It can delete itself (after an alert) and pops
/// itself off the stack when it does.
struct RecipeDetail: Reducer {
  struct State: Equatable, Codable {
    @PresentationState var alert: AlertState<Action.Alert>?
    var recipe: Recipe
  }

  enum Action: Equatable, Codable {
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case deleteButtonTapped
    case servingsStepperChanged(Int)
    case shoppingListButtonTapped

    enum Alert: Equatable, Codable {
      case confirmDeletion
    }

    enum Delegate: Equatable, Codable {
      case deleteRecipe(Recipe.ID)
      case recipeUpdated(Recipe)
      case showShoppingList([String])
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        return .run { [id = state.recipe.id] send in
          await send(.delegate(.deleteRecipe(id)))
          await self.dismiss()
        }

      case .alert:
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped:
        state.alert = .deleteRecipe(named: state.recipe.name)
        return .none

      case let .servingsStepperChanged(servings):
        state.recipe.servings = max(1, servings)
        return .send(.delegate(.recipeUpdated(state.recipe)))

      case .shoppingListButtonTapped:
        return .send(.delegate(.showShoppingList(state.recipe.ingredients)))
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
  }
}

extension AlertState where Action == RecipeDetail.Action.Alert {
  static func deleteRecipe(named name: String) -> Self {
    AlertState {
      TextState("Delete \(name)?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Keep it")
      }
    } message: {
      TextState("The recipe and its shopping list will be gone for good.")
    }
  }
}
