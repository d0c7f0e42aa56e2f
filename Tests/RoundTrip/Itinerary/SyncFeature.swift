import Architecture

/// Syncing the trips: progress arrives from an effect, and the last report stops the upload
/// and tells the parent, which leaves the `syncing` phase.
public struct SyncFeature: Reducer, Sendable {
  public struct State: Equatable, Codable, Sendable {
    public var total: Int
    public var done = 0

    public init(total: Int) { self.total = total }
  }

  public enum Action: Equatable, Codable, Sendable {
    case delegate(Delegate)
    case progressed
    case start

    public enum Delegate: Equatable, Codable, Sendable {
      case finished(Int)
    }
  }

  enum CancelID { case upload }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.progressed)
          }
        }
        .cancellable(id: CancelID.upload)
      case .progressed:
        state.done += 1
        guard state.done >= state.total else { return .none }
        return .merge(.cancel(id: CancelID.upload), .send(.delegate(.finished(state.done))))
      case .delegate:
        return .none
      }
    }
  }
}
