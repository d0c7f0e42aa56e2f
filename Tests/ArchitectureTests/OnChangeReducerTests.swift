import Architecture
import Testing

@MainActor
@Suite("onChange")
struct OnChangeReducerTests {
  struct Feature: Reducer {
    struct State: Equatable {
      var name = ""
      var other = 0
      var changes: [String] = []
      var persisted: [String] = []
    }
    enum Action: Equatable {
      case nameChanged(String)
      case otherChanged
      case persisted(String)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case let .nameChanged(name):
          state.name = name
          return .none
        case .otherChanged:
          state.other += 1
          return .none
        case let .persisted(name):
          state.persisted.append(name)
          return .none
        }
      }
      .onChange(of: \.name) { oldValue, newValue in
        Reduce { state, _ in
          state.changes.append("\(oldValue) -> \(newValue)")
          return .run { send in await send(.persisted(newValue)) }
        }
      }
    }
  }

  @Test("the inner reducer runs only when the value changed, with the old and new values")
  func firesOnChangeOnly() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.nameChanged("Blob")) {
        $0.name = "Blob"
        $0.changes = [" -> Blob"]
      }
      await store.receive(.persisted("Blob")) {
        $0.persisted = ["Blob"]
      }
      // Same value: no change, so no inner reducer and no effect.
      await store.send(.nameChanged("Blob"))
      // Another field: the watched value is unchanged.
      await store.send(.otherChanged) {
        $0.other = 1
      }
      await store.send(.nameChanged("Blob Jr.")) {
        $0.name = "Blob Jr."
        $0.changes = [" -> Blob", "Blob -> Blob Jr."]
      }
      await store.receive(.persisted("Blob Jr.")) {
        $0.persisted = ["Blob", "Blob Jr."]
      }
    }
    #expect(issues.isEmpty, "\(issues)")
  }

  @Test("a key path held in a variable and a closure both select the value to watch")
  func keyPathVariableAndClosure() {
    let field: KeyPath<Feature.State, Int> = \.other
    let byKeyPath = Reduce<Feature.State, Feature.Action> { state, _ in
      state.other += 1
      return .none
    }
    .onChange(of: field) { oldValue, newValue in
      Reduce { state, _ in
        state.changes.append("other \(oldValue) -> \(newValue)")
        return .none
      }
    }
    .onChange(of: { $0.other * 10 }) { oldValue, newValue in
      Reduce { state, _ in
        state.changes.append("tens \(oldValue) -> \(newValue)")
        return .none
      }
    }
    var state = Feature.State()
    _ = byKeyPath.reduce(into: &state, action: .otherChanged)
    #expect(state.changes == ["other 0 -> 1", "tens 0 -> 10"])
  }
}
