/// Builds a reducer from reducers listed top to bottom, with `if`, `if`/`else`, optionals and
/// loops.
///
/// The reducers run in order on the same `inout` state and their effects are merged.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  @inlinable
  public static func buildArray(_ reducers: [some Reducer<State, Action>]) -> some Reducer<
    State, Action
  > {
    _SequenceMany(reducers: reducers)
  }

  @inlinable
  public static func buildBlock() -> some Reducer<State, Action> {
    EmptyReducer()
  }

  @inlinable
  public static func buildBlock<R: Reducer<State, Action>>(_ reducer: R) -> R {
    reducer
  }

  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first reducer: R0
  ) -> _Conditional<R0, R1> {
    .first(reducer)
  }

  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second reducer: R1
  ) -> _Conditional<R0, R1> {
    .second(reducer)
  }

  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R {
    expression
  }

  @inlinable
  public static func buildFinalResult<R: Reducer<State, Action>>(_ reducer: R) -> R {
    reducer
  }

  @inlinable
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(_ wrapped: R)
    -> Reduce<State, Action>
  {
    Reduce(wrapped)
  }

  @inlinable
  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> R? {
    wrapped
  }

  @inlinable
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
    first
  }

  @inlinable
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _Sequence<R0, R1> {
    _Sequence(accumulated, next)
  }

  /// One of two reducers, chosen by an `if`/`else` in a builder.
  public enum _Conditional<First: Reducer<State, Action>, Second: Reducer<State, Action>>:
    Reducer
  {
    case first(First)
    case second(Second)

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch self {
      case let .first(first): first.reduce(into: &state, action: action)
      case let .second(second): second.reduce(into: &state, action: action)
      }
    }
  }

  /// Two reducers run one after the other.
  public struct _Sequence<R0: Reducer<State, Action>, R1: Reducer<State, Action>>: Reducer {
    @usableFromInline let r0: R0
    @usableFromInline let r1: R1

    @inlinable
    init(_ r0: R0, _ r1: R1) {
      self.r0 = r0
      self.r1 = r1
    }

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      let first = r0.reduce(into: &state, action: action)
      let second = r1.reduce(into: &state, action: action)
      return first.merge(with: second)
    }
  }

  /// Any number of reducers of one type run one after the other.
  public struct _SequenceMany<Element: Reducer<State, Action>>: Reducer {
    @usableFromInline let reducers: [Element]

    @inlinable
    init(reducers: [Element]) {
      self.reducers = reducers
    }

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      .merge(reducers.map { $0.reduce(into: &state, action: action) })
    }
  }
}

extension Optional: Reducer where Wrapped: Reducer {
  /// Runs the wrapped reducer if there is one.
  @inlinable
  public func reduce(
    into state: inout Wrapped.State, action: Wrapped.Action
  ) -> Effect<Wrapped.Action> {
    switch self {
    case let .some(wrapped): wrapped.reduce(into: &state, action: action)
    case .none: .none
    }
  }
}
