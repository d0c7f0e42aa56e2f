/// The actions of a navigation stack, as its parent sees them: an element's own action, a push
/// and a pop.
///
/// ```swift
/// enum Action {
///   case path(StackAction<Path.State, Path.Action>)
/// }
///
/// case let .path(.element(id: id, action: .detail(.deleteButtonTapped))):
///   state.path.pop(from: id)
/// ```
///
/// It is `Codable` when the elements' state and actions are, in the shape Swift synthesizes
/// for an enum: `{"element":{"id":0,"action":…}}`.
public enum StackAction<State, Action> {
  /// An action of the element with this id.
  indirect case element(id: StackElementID, action: Action)
  /// Pops the element with this id and every element above it.
  case popFrom(id: StackElementID)
  /// Pushes `state` with this id.
  indirect case push(id: StackElementID, state: State)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
extension StackAction: Encodable where State: Encodable, Action: Encodable {}
extension StackAction: Decodable where State: Decodable, Action: Decodable {}

/// The stack actions of a reducer's feature: `StackActionOf<Path>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>
