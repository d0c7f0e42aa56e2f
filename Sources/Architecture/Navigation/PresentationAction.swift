/// The actions of a presented feature, as its parent sees them: the child's own actions, and
/// `dismiss`.
///
/// ```swift
/// enum Action {
///   case destination(PresentationAction<Destination.Action>)
/// }
///
/// case .destination(.presented(.alert(.confirmDeletion))):
///   …
/// case .destination(.dismiss):
///   …
/// ```
///
/// `ifLet(\.$destination, action: /Action.destination)` runs the child for `.presented`, and
/// sets the presented state to `nil` after the parent has seen `.dismiss`. It is `Codable` when
/// the child's actions are, in the shape Swift synthesizes for an enum:
/// `{"presented":{"_0":…}}` and `{"dismiss":{}}`.
public enum PresentationAction<Action> {
  /// The presented feature is dismissed: its state is set to `nil` and its effects cancelled.
  case dismiss
  /// An action of the presented feature.
  indirect case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Encodable where Action: Encodable {}
extension PresentationAction: Decodable where Action: Decodable {}

/// The presentation actions of a reducer's feature: `PresentationActionOf<Destination>`.
public typealias PresentationActionOf<R: Reducer> = PresentationAction<R.Action>
