import Architecture

/// One feature of the corpus with a scripted session: its root reducer, an initial state, the
/// dependencies the session pins, and the script.
///
/// ``PlainSessions/run(_:wrapping:)`` plays the script on a real `Store` of the root reducer,
/// wrapped in whatever reducer a caller chooses (a recording one, say).
@MainActor
protocol PlainSession {
  associatedtype Feature: Reducer where Feature.State: Equatable

  /// The feature's name, as the README's table names it.
  static var name: String { get }

  /// The root reducer, as the app builds it.
  static func makeReducer() -> Feature

  /// The state the session starts from; built inside the session's dependencies, since some
  /// states read a dependency in their defaults.
  static func makeInitialState() -> Feature.State

  /// Pins what the session's effects read: clients, `uuid`, `date`. The clock and stack ids
  /// are pinned by the runner.
  static func prepareDependencies(_ dependencies: inout DependencyValues)

  /// Plays the session: 10 to 60 actions, effects, alerts, navigation and a failure.
  static func drive(_ driver: PlainDriver<Feature.State, Feature.Action>) async
}
