prefix operator /

/// Returns a case path for the enum case whose embed function is given, as in `/Action.child`.
///
/// No extract closure is needed: the path reads the case and its payload by reflection. This is
/// how TCA 1.0 code scopes to a child feature:
///
/// ```swift
/// enum AppAction {
///   case counter(CounterAction)
///   case move(from: Int, to: Int)
/// }
///
/// Scope(state: \.counter, action: /AppAction.counter) { Counter() }
///
/// (/AppAction.move).extract(from: .move(from: 1, to: 2))  // (1, 2)
/// ```
///
/// Works for cases with one payload, several (the value is a tuple, labels dropped), optional or
/// enum payloads, and `indirect` cases, and tells apart cases whose payloads have the same type.
/// `Root` must be an enum (or an optional); for any other type the path never extracts.
///
/// - Parameter embed: An enum case's embed function, such as `AppAction.counter`. A closure works
///   too as long as it always produces the same case.
/// - Returns: A case path that extracts by reflection. The enum's case is read from the Swift
///   runtime's metadata: extracting from a root of another case is a tag comparison, and from a
///   root of this case a copy of its payload.
///
/// The function need not be `@Sendable`: in the Swift 5 language mode, without the
/// `InferSendableFromCaptures` feature, `Action.child` is not inferred to be. An enum case's
/// embed function captures nothing, so it is safe to share.
@inlinable
public prefix func / <Root, Value>(
  embed: @escaping (Value) -> Root
) -> AnyCasePath<Root, Value> {
  let embed = unsafeBitCast(embed, to: (@Sendable (Value) -> Root).self)
  let reflected = ReflectedCase(embed: embed)
  return AnyCasePath(embed: embed, extract: { reflected.extract(from: $0) })
}

/// Returns a case path for an enum case without a payload, as in `/Action.tapped`.
///
/// ```swift
/// enum AppAction: Equatable {
///   case counter(CounterAction)
///   case settingsButtonTapped
/// }
///
/// let tapped = /AppAction.settingsButtonTapped  // AnyCasePath<AppAction, Void>
/// tapped.extract(from: .settingsButtonTapped) != nil  // true
/// tapped.extract(from: .counter(.incrementButtonTapped)) != nil  // false
/// ```
///
/// The enum must be `Equatable` (as TCA actions are, for `TestStore.receive`), though cases are
/// compared by their tags, not with `==`. The constraint keeps this overload from matching an
/// embed function: Swift 6.3 ranks an unconstrained `/ <Root>(embed: Root)` above the
/// embed-function overload, and `/AppAction.counter` would become a path to `Void`.
///
/// - Parameter embed: A case of an enum, without a payload. (Given a case with a payload, the path
///   matches every value of that case.)
/// - Returns: A case path whose extract compares the root's case with `embed`'s.
public prefix func / <Root: Equatable>(embed: Root) -> AnyCasePath<Root, Void> {
  PayloadlessCase(embed).casePath
}

/// Returns the identity case path of a type, as in `/AppAction.self`.
///
/// ```swift
/// (/AppAction.self).extract(from: .settingsButtonTapped)  // .settingsButtonTapped
/// ```
public prefix func / <Root>(root: Root.Type) -> AnyCasePath<Root, Root> {
  .self
}

/// Returns a case path into an optional enum, as in `/Destination.State.edit` where the root is
/// an optional destination.
///
/// ```swift
/// XCTModify(&$0.destination, case: /Destination.State.edit) {
///   $0.title = "Groceries"
/// }
/// ```
///
/// Extracting from `nil` gives `nil`; embedding gives the case wrapped in `.some`.
public prefix func / <Root, Value>(
  embed: @escaping (Value) -> Root?
) -> AnyCasePath<Root?, Value> {
  let embed = unsafeBitCast(embed, to: (@Sendable (Value) -> Root?).self)
  // `/Optional<Wrapped>.some` itself: the path to the wrapped value.
  if Value.self == Root.self {
    return AnyCasePath(embed: embed, extract: { $0.map { $0 as! Value } })
  }
  let unwrapped: AnyCasePath<Root, Value> = /{ embed($0)! }
  return AnyCasePath(embed: embed, extract: { $0.flatMap(unwrapped.extract(from:)) })
}
