import Architecture
import Testing

@MainActor
@Suite("Animation")
struct AnimationTests {
  struct Feature: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case tapped, animatedSend, incremented }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .tapped:
        return .send(.incremented, animation: .easeInOut(duration: 0.3))
      case .animatedSend:
        return .run { send in await send(.incremented, animation: .spring()) }
      case .incremented:
        state.count += 1
        return .none
      }
    }
  }

  @Test("Store.send, Effect.send and Send accept an animation and act as without one")
  func sendingWithAnimation() async {
    let store = Store(initialState: Feature.State()) { Feature() }
    store.send(.incremented, animation: .default)
    #expect(store.state.count == 1)
    store.send(.tapped, animation: nil)
    #expect(store.state.count == 2)
    await store.send(.animatedSend).finish()
    #expect(store.state.count == 3)
  }

  @Test("Animations compare and encode by their SwiftUI spelling")
  func spelling() {
    #expect(Animation.spring() == .spring(response: 0.5, dampingFraction: 0.825))
    #expect(Animation.linear(duration: 1) != .linear(duration: 2))
    #expect(Animation.easeIn.delay(1).description == "easeIn.delay(1.0)")
    #expect(Animation.interactiveSpring != .interactiveSpring())
  }
}
