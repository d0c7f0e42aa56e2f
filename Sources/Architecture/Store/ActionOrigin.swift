/// Where an action that a store reduced came from.
///
/// Steps are numbered per root store from 0, in the order the store reduced them. A recorder
/// reads the origin of the action being reduced from the store, so that a trace can say which
/// step's effect produced each action.
public enum ActionOrigin: Sendable, Hashable {
  /// Sent from outside the store: a user, a view, a test's `send`.
  case send
  /// Produced by an effect returned when the store reduced step `parent`.
  case effect(parent: Int)
}

/// The step a root store is reducing right now, read by reducers that record.
package struct ReduceContext: Sendable, Equatable {
  /// The number of the step being reduced: 0 for the first action the root store reduced.
  package var step: Int
  /// Where the action being reduced came from.
  package var origin: ActionOrigin

  /// The step being reduced on the main actor, or `nil` outside a store's reduce.
  @MainActor package static var current: ReduceContext?
}
