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
    id: some Hashable,
    cancelInFlight: Bool = false
  ) -> Self {
    Self(operation: .cancellable(id: CancelID(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every running effect marked with `id`.
  public static func cancel(id: some Hashable) -> Self {
    Self(operation: .cancel(id: CancelID(id)))
  }
}

/// A type-erased cancellation id, scoped by the navigation path it was created under.
struct CancelID: Hashable, Sendable {
  let id: AnyHashableSendable
  let path: NavigationPath

  init(_ id: some Hashable) {
    self.id = AnyHashableSendable(id)
    self.path = NavigationPath.current
  }
}

/// A `Sendable` `AnyHashable`: equal and hashed exactly as `AnyHashable` would be.
///
/// Making an `AnyHashable` costs two dynamic casts and a generic box, more than most reducers,
/// and every cancellable effect makes one. Most ids are enums or structs, which `AnyHashable`
/// compares by type and `==` alone; those are kept as they are. Classes, optionals and types with
/// a custom `AnyHashable` form (numbers, collections, `AnyHashable` itself) can equal values of
/// other types, and are kept as an `AnyHashable`.
///
/// Ids need only be `Hashable`, as in TCA: they are compared and hashed, never mutated, so
/// sharing one across tasks is safe.
// unchecked: ids need only be Hashable, as in TCA; hashed and compared, never mutated
struct AnyHashableSendable: Hashable, @unchecked Sendable {
  private enum Storage {
    case plain(any Hashable)
    case boxed(AnyHashable)
  }
  private let storage: Storage

  init<Base: Hashable>(_ base: Base) {
    // Structs and enums only: optionals, classes and the rest have kinds of their own.
    let kind = TypeMetadata(metadataPointer(of: Base.self)).kind
    if kind == MetadataKind.struct || kind == MetadataKind.enum,
      !(Base.self is _HasCustomAnyHashableRepresentation.Type)
    {
      storage = .plain(base)
    } else {
      storage = .boxed(AnyHashable(base))
    }
  }

  /// The id itself.
  var base: Any {
    switch storage {
    case .plain(let base): base
    case .boxed(let base): base.base
    }
  }

  /// The id as `String(reflecting:)` prints it: how a trace names a cancellation id.
  var reflection: String {
    switch storage {
    case .plain(let base): String(reflecting: base)
    case .boxed(let base): String(reflecting: base.base)
    }
  }

  private var anyHashable: AnyHashable {
    switch storage {
    case .plain(let base): AnyHashable(base)
    case .boxed(let base): base
    }
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    if case .plain(let left) = lhs.storage, case .plain(let right) = rhs.storage {
      return left.isEqual(to: right)
    }
    return lhs.anyHashable == rhs.anyHashable
  }

  func hash(into hasher: inout Hasher) {
    switch storage {
    // What `AnyHashable` hashes for a value of such a type.
    case .plain(let base): base.hash(into: &hasher)
    case .boxed(let base): base.hash(into: &hasher)
    }
  }
}

extension Hashable {
  /// Whether `other` is of this exact type and equal to this value.
  fileprivate func isEqual(to other: any Hashable) -> Bool {
    guard ObjectIdentifier(type(of: other)) == ObjectIdentifier(Self.self) else { return false }
    return self == (other as! Self)
  }
}

/// Where in a tree of features a reducer runs: the element ids and presentations above it.
///
/// `forEach` and `ifLet` extend it while their child runs, so a child's cancellation ids do
/// not collide with those of the same child feature elsewhere in the tree.
@usableFromInline
struct NavigationPath: Hashable, Sendable {
  private(set) var components: [AnyHashableSendable] = []

  /// The path where the current reducer runs.
  static var current: NavigationPath { scope.resolved }

  /// The current path, with its innermost component not yet boxed: most children make no
  /// cancellation id, and boxing a component into an `AnyHashable` and releasing it cost more
  /// than a child's reducer.
  @TaskLocal private static var scope = Scope()

  private struct Scope: Sendable {
    var path = NavigationPath()
    var innermost: (any Hashable & Sendable)?

    var resolved: NavigationPath {
      guard let innermost else { return path }
      var path = self.path
      path.components.append(AnyHashableSendable(innermost))
      return path
    }
  }

  /// Runs `operation` at the root of the tree, unless it runs there already.
  ///
  /// An action that an effect sends is reduced from the root store down, as a user's is: the
  /// effect's own path must not prefix the ids its reducers make.
  static func atRoot<R>(_ operation: () -> R) -> R {
    let scope = scope
    guard !scope.path.components.isEmpty || scope.innermost != nil else { return operation() }
    return $scope.withValue(Scope(), operation: operation)
  }

  /// Runs `operation` with `component` appended to the current path.
  @usableFromInline
  static func withComponent<R>(_ component: some Hashable & Sendable, _ operation: () -> R) -> R {
    $scope.withValue(Scope(path: current, innermost: component), operation: operation)
  }

  /// Runs an effect's `operation` with `path` as the current path and `dependencies` in force:
  /// those of the reducer that created the effect, so the ids it makes match the reducer's.
  static func withPath<R>(
    _ path: NavigationPath, dependencies: DependencyValues, _ operation: () async -> R
  ) async -> R {
    guard !path.components.isEmpty else {
      return await DependencyValues.$_current.withValue(dependencies, operation: operation)
    }
    return await $scope.withValue(Scope(path: path)) {
      await DependencyValues.$_current.withValue(dependencies, operation: operation)
    }
  }
}
