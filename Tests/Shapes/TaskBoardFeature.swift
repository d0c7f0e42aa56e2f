import Architecture
import Foundation

/// A task board in the shapes of Point-Free's examples whose values the tool once printed raw:
/// enums inside `@BindingState`, an `IndexSet` move, an alert whose action enum is empty, an
/// alert and a dialog with buttons, an empty struct, a stack whose element's action has no
/// payload four cases deep, a `Date` and a `UUID`.
struct TaskBoardFeature: Reducer {
  struct State: Equatable, Codable {
    @BindingState var draft = ""
    @BindingState var filter: Filter = .all
    @BindingState var editMode: EditMode = .inactive
    var tasks = ["Milk", "Eggs", "Bread"]
    var moved = IndexSet()
    var settings = Settings()
    var stampedAt: Date?
    var stampID: UUID?
    @PresentationState var notice: AlertState<Action.Notice>?
    @PresentationState var alert: AlertState<Action.Alert>?
    @PresentationState var dialog: ConfirmationDialogState<Action.Dialog>?
    var path = StackState<Path.State>()
  }

  enum Filter: String, Equatable, Codable {
    case all = "All"
    case completed = "Completed"
  }

  enum EditMode: Equatable, Codable {
    case active, inactive
  }

  /// No stored properties: encoded as `{}`.
  struct Settings: Equatable, Codable {}

  enum Action: BindableAction, Equatable, Codable {
    case alert(PresentationAction<Alert>)
    case binding(BindingAction<State>)
    case clearButtonTapped
    case dialog(PresentationAction<Dialog>)
    case moveTasks(fromOffsets: IndexSet, toOffset: Int)
    case noticeButtonTapped
    case notice(PresentationAction<Notice>)
    case openButtonTapped
    case optionsButtonTapped
    case path(StackAction<Path.State, Path.Action>)
    case stampButtonTapped

    enum Alert: Equatable, Codable {
      case confirmClear
    }

    enum Dialog: Equatable, Codable {
      case sortByName
    }

    /// An alert with nothing to send, as TCA's examples declare one.
    enum Notice: Equatable {}
  }

  struct Path: Reducer {
    enum State: Equatable, Codable {
      case detail(Detail.State)
    }

    enum Action: Equatable, Codable {
      case detail(Detail.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: /State.detail, action: /Action.detail) { Detail() }
    }
  }

  struct Detail: Reducer {
    struct State: Equatable, Codable {
      var title: String
      var isSubmitted = false
    }

    enum Action: Equatable, Codable {
      case editor(Editor)

      enum Editor: Equatable, Codable {
        case submitButtonTapped
      }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.isSubmitted = true
      return .none
    }
  }

  @Dependency(\.date) var date
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmClear)):
        state.tasks = []
        return .none
      case .alert, .binding, .notice, .path:
        return .none
      case .clearButtonTapped:
        state.alert = AlertState {
          TextState("Clear the board?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmClear) {
            TextState("Clear")
          }
          ButtonState(role: .cancel) {
            TextState("Keep")
          }
        } message: {
          TextState("Every task goes.")
        }
        return .none
      case .dialog(.presented(.sortByName)):
        state.tasks.sort()
        return .none
      case .dialog:
        return .none
      case .moveTasks(let offsets, let destination):
        // `Array.move(fromOffsets:toOffset:)` is SwiftUI's: the same, by hand.
        let moving = offsets.map { state.tasks[$0] }
        let before = offsets.filter { $0 < destination }.count
        for offset in offsets.reversed() { state.tasks.remove(at: offset) }
        state.tasks.insert(contentsOf: moving, at: destination - before)
        state.moved = offsets
        return .none
      case .noticeButtonTapped:
        state.notice = AlertState(title: TextState("Saved"))
        return .none
      case .openButtonTapped:
        state.path.append(.detail(Detail.State(title: state.tasks.first ?? "")))
        return .none
      case .optionsButtonTapped:
        state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
          TextState("Options")
        } actions: {
          ButtonState(action: .sortByName) {
            TextState("Sort by name")
          }
        }
        return .none
      case .stampButtonTapped:
        state.stampedAt = date.now
        state.stampID = uuid()
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
    .ifLet(\.$notice, action: /Action.notice)
    .ifLet(\.$dialog, action: /Action.dialog)
    .forEach(\.path, action: /Action.path) { Path() }
  }
}

// Swift synthesizes no `Codable` for an enum without cases: an alert's empty action enum
// needs these two lines.
extension TaskBoardFeature.Action.Notice: Codable {
  init(from decoder: any Decoder) throws {
    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no cases"))
  }
  func encode(to encoder: any Encoder) throws {}
}

/// A session over every shape: binding edits of enums and text, a move, alerts, a dialog, a
/// pushed screen and its payload-less action, a date and a UUID.
let taskBoardSession: [TaskBoardFeature.Action] = [
  .binding(.set(\.$draft, "hi")),
  .binding(.set(\.$filter, .completed)),
  .binding(.set(\.$editMode, .active)),
  .moveTasks(fromOffsets: IndexSet([0]), toOffset: 2),
  .noticeButtonTapped,
  .notice(.dismiss),
  .clearButtonTapped,
  .alert(.dismiss),
  .optionsButtonTapped,
  .dialog(.presented(.sortByName)),
  .openButtonTapped,
  .path(.element(id: 0, action: .detail(.editor(.submitButtonTapped)))),
  .stampButtonTapped,
]
