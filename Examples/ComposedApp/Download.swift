import Architecture

/// A download screen the app presents over its tabs: progress ticks on the clock, then a result.
///
/// It stands in for any presented child with a long-running effect. The user may close it while
/// the download runs; the parent's `ifLet` then cancels the effect, so no progress arrives for a
/// screen that is gone.
public struct Download: Reducer, Sendable {
  /// One file's download: how far it got and, once finished, what came of it.
  public struct State: Equatable, Codable, Sendable {
    public var fileName: String
    /// Percent done, 0 to 100.
    public var progress: Int
    public var isDownloading: Bool
    /// What the finished download produced.
    public var result: String?

    public init(
      fileName: String, progress: Int = 0, isDownloading: Bool = false, result: String? = nil
    ) {
      self.fileName = fileName
      self.progress = progress
      self.isDownloading = isDownloading
      self.result = result
    }
  }

  /// The screen's buttons, and the download effect's reports.
  public enum Action: Equatable, Codable, Sendable {
    case cancelButtonTapped
    case downloadFinished(String)
    case progressUpdated(percent: Int)
    case startButtonTapped
  }

  /// How many chunks a download takes, one a second.
  public static let chunkCount = 4

  enum CancelID { case download }

  @Dependency(\.continuousClock) var clock

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelButtonTapped:
        state.isDownloading = false
        state.progress = 0
        return .cancel(id: CancelID.download)

      case let .downloadFinished(result):
        state.isDownloading = false
        state.result = result
        return .none

      case let .progressUpdated(percent):
        state.progress = percent
        return .none

      case .startButtonTapped:
        guard !state.isDownloading else { return .none }
        state.isDownloading = true
        state.progress = 0
        state.result = nil
        return .run { [fileName = state.fileName] send in
          for chunk in 1...Self.chunkCount {
            try await clock.sleep(for: .seconds(1))
            await send(.progressUpdated(percent: chunk * 100 / Self.chunkCount))
          }
          await send(.downloadFinished("\(fileName): \(Self.chunkCount) chunks"))
        }
        .cancellable(id: CancelID.download)
      }
    }
  }
}
