extension Effect {
  /// Makes this effect cancellable by `id`, optionally cancelling effects already running
  /// with the same id first.
  ///
  /// ```swift
  /// return .run { send in … }
  ///   .cancellable(id: CancelID.timer, cancelInFlight: true)
  /// ```
  ///
  /// Ids are scoped to the root store that runs the effect.
  public func cancellable(
    id: some Hashable & Sendable,
    cancelInFlight: Bool = false
  ) -> Self {
    Self(operation: .cancellable(id: CancelID(id), cancelInFlight: cancelInFlight, self))
  }

  /// ``cancellable(id:cancelInFlight:)`` with an id boxed already, which must be the box that
  /// `cancellable(id:)` would make of it.
  @usableFromInline
  func cancellable(boxedID id: AnyHashableSendable) -> Self {
    Self(operation: .cancellable(id: CancelID(boxed: id), cancelInFlight: false, self))
  }

  /// An effect that cancels every running effect marked with `id`.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: CancelID(id)))
  }
}

/// A type-erased cancellation id, scoped by the navigation path it was created under.
struct CancelID: Hashable, Sendable {
  let id: AnyHashableSendable
  let path: NavigationPath

  init(_ id: some Hashable & Sendable) {
    self.id = AnyHashableSendable(id)
    self.path = NavigationPath.current
  }

  init(boxed id: AnyHashableSendable) {
    self.id = id
    self.path = NavigationPath.current
  }
}

/// A `Sendable` `AnyHashable`.
@usableFromInline
struct AnyHashableSendable: Hashable, @unchecked Sendable {
  let base: AnyHashable
  @usableFromInline init(_ base: some Hashable & Sendable) { self.base = AnyHashable(base) }
}

/// Where in a tree of features a reducer runs: the element ids and presentations above it.
///
/// `forEach` and `ifLet` extend it while their child runs, so a child's cancellation ids do
/// not collide with those of the same child feature elsewhere in the tree.
@usableFromInline
struct NavigationPath: Hashable, Sendable {
  @TaskLocal static var current = NavigationPath()

  private(set) var components: [AnyHashableSendable] = []

  func appending(_ component: some Hashable & Sendable) -> Self {
    var copy = self
    copy.components.append(AnyHashableSendable(component))
    return copy
  }

  /// Runs `operation` with `component` appended to the current path.
  @usableFromInline
  static func withComponent<R>(_ component: AnyHashableSendable, _ operation: () -> R) -> R {
    var path = current
    path.components.append(component)
    return $current.withValue(path, operation: operation)
  }
}
