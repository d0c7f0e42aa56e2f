import Architecture
import Counter

/// An app made of features: the counter as a tab (`Scope`), a list of timers (`forEach`) and a
/// download presented over the tabs (`ifLet`).
///
/// It shows how effects follow the tree: each child's effects are mapped into app actions, a
/// row's effects end when the row is removed, and the presented download's effect ends when
/// the app dismisses it.
public struct AppFeature: Reducer, Sendable {
  /// Every tab's state, and the download when one is presented.
  public struct State: Equatable, Codable, Sendable {
    public var selectedTab: Tab
    public var counter: CounterFeature.State
    public var timers: IdentifiedArrayOf<TimerRow.State>
    /// The presented download; `nil` when none is shown.
    public var detail: Download.State?

    public init(
      selectedTab: Tab = .counter,
      counter: CounterFeature.State = CounterFeature.State(),
      timers: IdentifiedArrayOf<TimerRow.State> = [],
      detail: Download.State? = nil
    ) {
      self.selectedTab = selectedTab
      self.counter = counter
      self.timers = timers
      self.detail = detail
    }
  }

  /// The app's own buttons, and its children's actions wrapped in cases of their own.
  public enum Action: Equatable, Codable, Sendable {
    case addTimerButtonTapped
    case counter(CounterFeature.Action)
    case detail(Download.Action)
    case dismissDetailButtonTapped
    case downloadButtonTapped
    case removeTimerButtonTapped(id: TimerRow.State.ID)
    case tabSelected(Tab)
    case timer(id: TimerRow.State.ID, action: TimerRow.Action)
  }

  /// The file the download button fetches.
  public static let downloadFileName = "trace.json"

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: /Action.counter) {
      CounterFeature()
    }
    Reduce { state, action in
      switch action {
      case .addTimerButtonTapped:
        let name = "Timer \(state.timers.count + 1)"
        state.timers.append(TimerRow.State(id: uuid(), name: name))
        return .none

      case .counter:
        return .none

      case .detail:
        return .none

      case .dismissDetailButtonTapped:
        // No `.cancel` here: `ifLet` cancels the download's effect when its state goes away.
        state.detail = nil
        return .none

      case .downloadButtonTapped:
        guard state.detail == nil else { return .none }
        state.detail = Download.State(fileName: Self.downloadFileName)
        return .none

      case let .removeTimerButtonTapped(id):
        // No `.cancel` here either: `forEach` cancels the effects of the rows it loses.
        state.timers.remove(id: id)
        return .none

      case let .tabSelected(tab):
        state.selectedTab = tab
        return .none

      case .timer:
        return .none
      }
    }
    .forEach(\.timers, action: /Action.timer(id:action:)) {
      TimerRow()
    }
    .ifLet(\.detail, action: /Action.detail) {
      Download()
    }
  }
}
