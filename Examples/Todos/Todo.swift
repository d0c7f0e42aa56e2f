import Architecture
import Foundation

/// One row of the todo list: a title to edit and a box to tick.
///
/// It is its own feature so that `TodosFeature` can run it on every element of its list with
/// `forEach`, as TCA apps do with list rows.
public struct Todo: Reducer, Sendable {
  /// A todo; its id comes from `@Dependency(\.uuid)` and its date from `@Dependency(\.date)`, so
  /// tests can predict both.
  public struct State: Equatable, Codable, Sendable, Identifiable {
    public let id: UUID
    public var title: String
    public var isComplete: Bool
    public var createdAt: Date

    public init(id: UUID, title: String = "", isComplete: Bool = false, createdAt: Date) {
      self.id = id
      self.title = title
      self.isComplete = isComplete
      self.createdAt = createdAt
    }
  }

  /// What the user does to a row.
  public enum Action: Equatable, Codable, Sendable {
    case checkboxTapped
    case titleChanged(String)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .checkboxTapped:
        state.isComplete.toggle()
        return .none

      case let .titleChanged(title):
        state.title = title
        return .none
      }
    }
  }
}
