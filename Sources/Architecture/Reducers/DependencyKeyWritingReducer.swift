extension Reducer {
  /// Runs this reducer, and the effects it returns, with the dependency at `keyPath` set to
  /// `value`.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Scope(state: \.feature, action: /Action.feature) {
  ///     Feature()
  ///       .dependency(\.apiClient, .mock)
  ///       .dependency(\.uuid, .incrementing)
  ///   }
  /// }
  /// ```
  ///
  /// Effects capture the dependencies in force when they are created, so a `.run` returned by
  /// this reducer sees `value` too, however long it runs. When the same dependency is set twice
  /// in a chain, the call nearest the reducer wins.
  ///
  /// - Parameters:
  ///   - keyPath: The property of ``DependencyValues`` to override.
  ///   - value: The value to use while this reducer and its effects run.
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self, site: ReducerSite(fileID: fileID, line: line)) {
      $0[keyPath: keyPath] = value
    }
  }

  /// Runs this reducer, and the effects it returns, with `value` as the dependency whose key
  /// is its own type.
  ///
  /// ```swift
  /// Feature()
  ///   .dependency(APIClient.mock)  // APIClient: TestDependencyKey, Value == APIClient
  /// ```
  @inlinable
  public func dependency<Value: TestDependencyKey>(
    _ value: Value,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _DependencyKeyWritingReducer<Self> where Value.Value == Value {
    _DependencyKeyWritingReducer(base: self, site: ReducerSite(fileID: fileID, line: line)) {
      $0[Value.self] = value
    }
  }

  /// Runs this reducer, and the effects it returns, with the dependency at `keyPath` changed
  /// by `transform`.
  ///
  /// ```swift
  /// Feature()
  ///   .transformDependency(\.speechClient) { speechClient in
  ///     speechClient.requestAuthorization = { [speechClient] in
  ///       print("requestAuthorization")
  ///       return try await speechClient.requestAuthorization()
  ///     }
  ///   }
  /// ```
  ///
  /// `transform` receives the value currently in force and runs for every action, so it should
  /// not build expensive dependencies. `\.self` transforms all dependencies at once.
  ///
  /// - Parameters:
  ///   - keyPath: The property of ``DependencyValues`` to transform.
  ///   - transform: Changes the dependency in place.
  @inlinable
  public func transformDependency<V>(
    _ keyPath: WritableKeyPath<DependencyValues, V>,
    transform: @escaping (_ dependency: inout V) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self, site: ReducerSite(fileID: fileID, line: line)) {
      transform(&$0[keyPath: keyPath])
    }
  }
}

/// The reducer `dependency(_:_:)` and `transformDependency(_:transform:)` return.
///
/// Chained calls fold into one reducer, so a chain of overrides costs one task-local push;
/// `blame` names the chain by its first call, the one nearest the reducer.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let update: (inout DependencyValues) -> Void
  @usableFromInline let site: ReducerSite

  @usableFromInline
  init(base: Base, site: ReducerSite, update: @escaping (inout DependencyValues) -> Void) {
    self.base = base
    self.site = site
    self.update = update
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(update) {
      Blame.run(
        BlameFrame(kind: "dependency", site: site, segment: .same, isLeaf: false), &state
      ) { base.reduce(into: &$0, action: action) }
    }
  }

  /// Adds an override to this chain; overrides nearer the reducer win.
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> Self {
    Self(base: base, site: site) { [update] values in
      values[keyPath: keyPath] = value
      update(&values)
    }
  }

  /// Adds a transformation to this chain; the ones nearer the reducer run last.
  @inlinable
  public func transformDependency<V>(
    _ keyPath: WritableKeyPath<DependencyValues, V>,
    transform: @escaping (_ dependency: inout V) -> Void
  ) -> Self {
    Self(base: base, site: site) { [update] values in
      transform(&values[keyPath: keyPath])
      update(&values)
    }
  }
}
