import Architecture
import Recorder

/// A kitchen pantry: stock counted by item, and a shopping list of what ran out. A domain the
/// examples do not have (a dictionary keyed by name, a set), for the crash tests.
public struct PantryFeature: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var stock: [String: Int] = [:]
    public var shoppingList: Set<String> = []
    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    case stocked(String, count: Int)
    case used(String)
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .stocked(item, count):
      state.stock[item, default: 0] += count
      state.shoppingList.remove(item)
    case let .used(item):
      // Using what is not there puts it on the list.
      guard let count = state.stock[item], count > 0 else {
        state.shoppingList.insert(item)
        return .none
      }
      state.stock[item] = count - 1
      if count == 1 { state.shoppingList.insert(item) }
    }
    return .none
  }

  /// A session whose fourth step (3) uses an item never stocked, as does its seventh (6).
  public static let session: [Action] = [
    .stocked("flour", count: 2), .used("flour"), .used("flour"), .used("saffron"),
    .stocked("eggs", count: 6), .used("eggs"), .used("vanilla"), .used("eggs"),
  ]
}

/// ``Mutant/pantryForceUnwrap``: a refactor that assumes every used item is stocked, and traps
/// on the first that is not.
public struct PantryForceUnwrap: Reducer, Sendable {
  public init() {}
  public func reduce(
    into state: inout PantryFeature.State, action: PantryFeature.Action
  ) -> Effect<PantryFeature.Action> {
    guard case let .used(item) = action else {
      return PantryFeature().reduce(into: &state, action: action)
    }
    state.stock[item]! -= 1
    if state.stock[item] == 0 { state.shoppingList.insert(item) }
    return .none
  }
}

extension PantryFeature {
  /// Records ``session`` through `reducer` into `path`, with today's recorder. Through
  /// ``PantryForceUnwrap`` the process dies at step 3, and the trace ends in a crash record
  /// naming it: `mutant-replay-host record pantry-force-unwrap <trace>` makes one.
  public static func recordSession<Base: Reducer>(through reducer: Base, to path: String) throws
  where Base.State == State, Base.Action == Action {
    let recorder = try TraceRecorder(path: path)
    let recording = reducer.recording(to: recorder)
    var state = State()
    for action in session { _ = recording.reduce(into: &state, action: action) }
    try recorder.close()
  }
}
