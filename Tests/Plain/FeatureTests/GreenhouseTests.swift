import Architecture
import Testing

@testable import PlainFeatures

@MainActor
@Suite("Greenhouse")
struct GreenhouseTests {
  @Test("watering from the dialog counts until the daily limit, then a notice says enough")
  func wateringLimit() async {
    let store = TestStore(initialState: Greenhouse.State(waterings: 2)) {
      Greenhouse()
    }

    await store.send(.careButtonTapped) {
      $0.dialog = ConfirmationDialogState(titleVisibility: .visible) {
        TextState("Care for the seedlings")
      } actions: {
        ButtonState(action: .water) { TextState("Water") }
        ButtonState(action: .mist) { TextState("Mist") }
        ButtonState(role: .cancel) { TextState("Not now") }
      } message: {
        TextState("Watered 2 of 3 times today.")
      }
    }
    await store.send(.dialog(.presented(.water))) {
      $0.dialog = nil
      $0.waterings = 3
    }
    await store.send(.careButtonTapped) {
      $0.dialog = ConfirmationDialogState(titleVisibility: .visible) {
        TextState("Care for the seedlings")
      } actions: {
        ButtonState(action: .water) { TextState("Water") }
        ButtonState(action: .mist) { TextState("Mist") }
        ButtonState(role: .cancel) { TextState("Not now") }
      } message: {
        TextState("Watered 3 of 3 times today.")
      }
    }
    await store.send(.dialog(.presented(.water))) {
      $0.dialog = nil
      $0.notice = AlertState { TextState("The seedlings have had enough water today.") }
    }
    await store.send(.notice(.dismiss)) {
      $0.notice = nil
    }
  }

  @Test("misting from the dialog, and dismissing it, leave the waterings alone")
  func mistAndDismiss() async {
    let store = TestStore(initialState: Greenhouse.State()) {
      Greenhouse()
    }
    store.exhaustivity = .off

    await store.send(.careButtonTapped)
    await store.send(.dialog(.presented(.mist))) {
      $0.dialog = nil
      $0.mistings = 1
    }
    await store.send(.careButtonTapped)
    await store.send(.dialog(.dismiss)) {
      $0.dialog = nil
    }
    #expect(store.state.waterings == 0)
  }

  @Test("the feed alert feeds when confirmed and does nothing when dismissed")
  func feedAlert() async {
    let store = TestStore(initialState: Greenhouse.State()) {
      Greenhouse()
    }

    await store.send(.feedButtonTapped) {
      $0.alert = AlertState {
        TextState("Feed the seedlings?")
      } actions: {
        ButtonState(role: .destructive, action: .feedConfirmed) { TextState("Feed") }
        ButtonState(role: .cancel) { TextState("Cancel") }
      } message: {
        TextState("Feedings so far: 0. Too much feed burns the roots.")
      }
    }
    await store.send(.alert(.presented(.feedConfirmed))) {
      $0.alert = nil
      $0.feedings = 1
    }
    await store.send(.feedButtonTapped) {
      $0.alert = AlertState {
        TextState("Feed the seedlings?")
      } actions: {
        ButtonState(role: .destructive, action: .feedConfirmed) { TextState("Feed") }
        ButtonState(role: .cancel) { TextState("Cancel") }
      } message: {
        TextState("Feedings so far: 1. Too much feed burns the roots.")
      }
    }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }
  }
}
