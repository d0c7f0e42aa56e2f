import Architecture
import Testing

/// A sheet that ticks on a clock, can close itself, and knows whether it is presented.
private struct Editor: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var text = ""
    var ticks = 0
    var wasPresented: Bool?
  }
  enum Action: Equatable, Codable {
    case appeared, closeButtonTapped, tick, typed(String)
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.isPresented) var isPresented

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .appeared:
        state.wasPresented = isPresented
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
      case .closeButtonTapped:
        return .run { _ in await dismiss() }
      case .tick:
        state.ticks += 1
        return .none
      case let .typed(text):
        state.text = text
        return .none
      }
    }
  }
}

private struct Library: Reducer {
  struct State: Equatable {
    @PresentationState var destination: Destination.State?
    var saved: [String] = []
  }
  enum Action: Equatable {
    case destination(PresentationAction<Destination.Action>)
    case editButtonTapped(Int)
    case pickerButtonTapped
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case editor(Editor.State)
      case picker(Editor.State)
    }
    enum Action: Equatable {
      case editor(Editor.Action)
      case picker(Editor.Action)
    }
    var body: some ReducerOf<Self> {
      Scope(state: /State.editor, action: /Action.editor) { Editor() }
      Scope(state: /State.picker, action: /Action.picker) { Editor() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .editButtonTapped(id):
        state.destination = .editor(Editor.State(id: id))
        return .none
      case .pickerButtonTapped:
        state.destination = .picker(Editor.State(id: 99))
        return .none
      case .destination(.dismiss):
        if case let .editor(editor) = state.destination { state.saved.append(editor.text) }
        return .none
      case .destination:
        return .none
      }
    }
    .ifLet(\.$destination, action: /Action.destination) {
      Destination()
    }
  }
}

@MainActor
@Suite("Tree navigation: PresentationState, PresentationAction, ifLet, dismiss")
struct PresentationTests {
  @Test("a presented child runs, and .dismiss lets the parent see it before clearing it")
  func presentAndDismiss() async {
    let store = TestStore(initialState: Library.State()) { Library() }
    await store.send(.editButtonTapped(1)) {
      $0.destination = .editor(Editor.State(id: 1))
    }
    await store.send(.destination(.presented(.editor(.typed("Dune"))))) {
      $0.destination = .editor(Editor.State(id: 1, text: "Dune"))
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
      $0.saved = ["Dune"]
    }
  }

  @Test("dismissal cancels the child's running effects")
  func dismissalCancelsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Library.State()) { Library() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.editButtonTapped(1)) { $0.destination = .editor(Editor.State(id: 1)) }
    await store.send(.destination(.presented(.editor(.appeared)))) {
      $0.$destination[case: /Library.Destination.State.editor]?.wasPresented = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.editor(.tick)))) {
      $0.$destination[case: /Library.Destination.State.editor]?.ticks = 1
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
      $0.saved = [""]
    }
    // The timer is gone: advancing the clock delivers nothing, and the test ends with no
    // effect in flight.
    await clock.advance(by: .seconds(5))
  }

  @Test("changing the destination's case ends the old presentation and cancels its effects")
  func switchingCaseCancels() async {
    let clock = TestClock()
    let store = TestStore(initialState: Library.State()) { Library() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.editButtonTapped(1)) { $0.destination = .editor(Editor.State(id: 1)) }
    await store.send(.destination(.presented(.editor(.appeared)))) {
      $0.$destination[case: /Library.Destination.State.editor]?.wasPresented = true
    }
    await store.send(.pickerButtonTapped) { $0.destination = .picker(Editor.State(id: 99)) }
    await clock.advance(by: .seconds(3))
  }

  @Test("a child dismisses itself through @Dependency(\\.dismiss)")
  func childDismissesItself() async {
    let store = TestStore(initialState: Library.State()) { Library() }
    await store.send(.editButtonTapped(7)) { $0.destination = .editor(Editor.State(id: 7)) }
    await store.send(.destination(.presented(.editor(.closeButtonTapped))))
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
      $0.saved = [""]
    }
  }

  @Test("dismiss outside a presentation reports an issue")
  func dismissOutsidePresentation() async {
    let store = TestStore(initialState: Editor.State(id: 1)) { Editor() }
    let issues = await withIssueCapture {
      await store.send(.closeButtonTapped)
      await store.finish()
    }
    #expect(issues.count == 1)
    #expect(issues.first?.message.hasPrefix("A reducer requested dismissal at") == true)
  }

  @Test("a presentation action while nothing is presented is reported, and the parent still runs")
  func absentStateIsReported() async {
    let store = TestStore(initialState: Library.State()) { Library() }
    let issues = await withIssueCapture {
      await store.send(.destination(.presented(.editor(.typed("x")))))
    }
    #expect(issues.count == 1)
    #expect(
      issues.first?.message.contains("received a presentation action when destination state was absent")
        == true)
  }

  @Test("a Scope over an enum case reports an action for another case")
  func scopeReportsWrongCase() async {
    let store = TestStore(initialState: Library.Destination.State.picker(Editor.State(id: 1))) {
      Library.Destination()
    }
    let issues = await withIssueCapture {
      await store.send(.editor(.typed("x")))
    }
    #expect(issues.first?.message.contains("received a child action when child state was set to a different case") == true)
  }

  @Test("PresentationState encodes as the optional it wraps, and round-trips")
  func presentationStateCodable() throws {
    struct Holder: Codable, Equatable {
      @PresentationState var child: Editor.Action?
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let none = try encoder.encode(Holder(child: nil))
    #expect(String(decoding: none, as: UTF8.self) == #"{"child":null}"#)
    let some = Holder(child: .typed("a"))
    let data = try encoder.encode(some)
    #expect(String(decoding: data, as: UTF8.self) == #"{"child":{"typed":{"_0":"a"}}}"#)
    #expect(try JSONDecoder().decode(Holder.self, from: data) == some)
  }

  @Test("PresentationAction round-trips in the shape Swift synthesizes for enums")
  func presentationActionCodable() throws {
    let actions: [PresentationAction<Editor.Action>] = [.dismiss, .presented(.typed("b"))]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(actions)
    #expect(String(decoding: data, as: UTF8.self) == #"[{"dismiss":{}},{"presented":{"_0":{"typed":{"_0":"b"}}}}]"#)
    #expect(try JSONDecoder().decode([PresentationAction<Editor.Action>].self, from: data) == actions)
  }

  @Test("a copy of a PresentationState is independent of the original")
  func copyOnWrite() {
    var a = PresentationState<Int>(wrappedValue: 1)
    let b = a
    a.wrappedValue = 2
    #expect(b.wrappedValue == 1)
    #expect(a.wrappedValue == 2)
  }
}

/// A list whose delete asks first: an alert without a reducer of its own, and a dialog inside
/// a destination enum.
private struct Shelf: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    @PresentationState var destination: Destination.State?
    var items = ["a", "b"]
  }
  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case destination(PresentationAction<Destination.Action>)
    case deleteButtonTapped
    case sortButtonTapped
    enum Alert: Equatable { case confirmDeletion }
  }
  struct Destination: Reducer {
    enum State: Equatable { case dialog(ConfirmationDialogState<Action.Dialog>) }
    enum Action: Equatable {
      case dialog(Dialog)
      enum Dialog: Equatable { case reverse }
    }
    var body: some ReducerOf<Self> { EmptyReducer() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped:
        state.alert = AlertState {
          TextState("Delete everything?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
        }
        return .none
      case .sortButtonTapped:
        state.destination = .dialog(
          ConfirmationDialogState(titleVisibility: .visible) {
            TextState("Sort")
          } actions: {
            ButtonState(action: .reverse) { TextState("Reverse") }
          })
        return .none
      case .alert(.presented(.confirmDeletion)):
        state.items = []
        return .none
      case .destination(.presented(.dialog(.reverse))):
        state.items.reverse()
        return .none
      case .alert, .destination:
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
    .ifLet(\.$destination, action: /Action.destination) { Destination() }
  }
}

@MainActor
@Suite("Alerts and dialogs presented with ifLet")
struct AlertPresentationTests {
  @Test("an alert button's action reaches the parent, and the alert is then cleared")
  func alertActionClears() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    await store.send(.deleteButtonTapped) {
      $0.alert = AlertState {
        TextState("Delete everything?")
      } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
      }
    }
    await store.send(.alert(.presented(.confirmDeletion))) {
      $0.alert = nil
      $0.items = []
    }
  }

  @Test("dismissing an alert clears it without its action")
  func alertDismiss() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    store.exhaustivity = .off
    await store.send(.deleteButtonTapped)
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    #expect(store.state.items == ["a", "b"])
  }

  @Test("a dialog inside a destination enum is cleared after its action")
  func dialogInDestinationClears() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    store.exhaustivity = .off
    await store.send(.sortButtonTapped)
    await store.send(.destination(.presented(.dialog(.reverse)))) {
      $0.destination = nil
      $0.items = ["b", "a"]
    }
  }
}
