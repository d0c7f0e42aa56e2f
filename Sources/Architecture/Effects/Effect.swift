/// The side effects a reducer returns: work that may feed actions back into the store.
///
/// ```swift
/// case .factButtonTapped:
///   state.isLoading = true
///   return .run { [count = state.count] send in
///     let fact = try await numberFact.fetch(count)
///     await send(.factResponse(fact))
///   }
/// ```
///
/// Effects run on Swift concurrency only. `.send` effects are reduced in the same batch as the
/// action that returned them; `.run` effects run in their own task and re-enter the store
/// through ``Send``.
public struct Effect<Action>: Sendable {
  indirect enum Operation: Sendable {
    case none
    case send(SendableBox<Action>)
    case run(TaskPriority?, @Sendable (Send<Action>) async -> Void)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(id: CancelID, cancelInFlight: Bool, Effect)
    case cancel(id: CancelID)
    /// The effect, whose runs the store numbers and reports as they end; see
    /// ``Effect/observed(by:)``.
    case observed(Effect, EffectObservation)
  }

  let operation: Operation

  init(operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing.
  public static var none: Self { Self(operation: .none) }

  /// An effect that immediately sends `action` back into the store, in the same batch.
  ///
  /// Prefer calling a shared helper over sending actions to share logic; `.send` is for
  /// telling a parent feature something happened.
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(SendableBox(action)))
  }

  /// An effect that runs `operation` in a task and sends actions back through `send`.
  ///
  /// Errors other than cancellation are passed to `handler`; without a handler they are
  /// reported as an issue that names the file and line of the `.run`. The dependencies in
  /// force where the effect is created are in force inside its task.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let dependencies = DependencyValues._current
    let path = NavigationPath.current
    return Self(
      operation: .run(priority) { send in
        await NavigationPath.withPath(path, dependencies: dependencies) {
          do {
            try await operation(send)
          } catch is CancellationError {
          } catch  where Task.isCancelled {
          } catch {
            if let handler {
              await handler(error, send)
            } else {
              reportIssue(
                """
                An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error. …

                    \(String(reflecting: error))

                All non-cancellation errors must be explicitly handled via the "catch" \
                parameter on "Effect.run", or via a "do" block.
                """,
                fileID: fileID,
                filePath: filePath,
                line: line,
                column: column
              )
            }
          }
        }
      }
    )
  }

  /// Runs several effects at the same time.
  public static func merge(_ effects: Self...) -> Self {
    if effects.count == 2 { return effects[0].merge(with: effects[1]) }
    return .merge(effects)
  }

  /// Runs a collection of effects at the same time.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(operation: .merge(effects))
    }
  }

  /// Runs several effects one after the other.
  public static func concatenate(_ effects: Self...) -> Self { .concatenate(effects) }

  /// Runs a collection of effects one after the other, each starting when the last finished.
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    let effects = effects.filter { !$0.isNone }
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default: return Self(operation: .concatenate(effects))
    }
  }

  /// Merges this effect with another.
  public func merge(with other: Self) -> Self {
    // Most reducers return `.none`: answer without building and filtering an array.
    if other.isNone { return self }
    if isNone { return other }
    return Self(operation: .merge([self, other]))
  }

  /// Runs `other` after this effect finishes.
  public func concatenate(with other: Self) -> Self { .concatenate(self, other) }

  /// Transforms the actions this effect sends.
  ///
  /// As in TCA, `transform` need not be `@Sendable`: it runs where the effect's actions are
  /// sent, on the store's main actor, so an embed function held in a plain closure works:
  ///
  /// ```swift
  /// let toParent: (Child.Action) -> Action = Action.child
  /// return Child().reduce(into: &state.child, action: action).map(toParent)
  /// ```
  public func map<NewAction>(
    _ transform: @escaping (Action) -> NewAction
  ) -> Effect<NewAction> {
    // NB: only ever called on the main actor (in `reduce`, or by `Send`), so sharing it is safe;
    // the cast, not a wrapping closure, keeps `Scope`'s per-action cost as it was.
    map(unsafeBitCast(transform, to: (@Sendable (Action) -> NewAction).self), around: nil)
  }

  /// Transforms the actions this effect sends, and runs each `.run` operation inside `around`,
  /// which is handed the operation and the new effect's `send`.
  func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction,
    around: (@Sendable (_ operation: () async -> Void, _ send: Send<NewAction>) async -> Void)?
  ) -> Effect<NewAction> {
    switch operation {
    case .none:
      return .none
    case .send(let box):
      return .send(transform(box.value))
    case .run(let priority, let operation):
      guard let around else {
        return Effect<NewAction>(
          operation: .run(priority) { send in
            await operation(Send { action in send(transform(action)) })
          }
        )
      }
      return Effect<NewAction>(
        operation: .run(priority) { send in
          await around({ await operation(Send { action in send(transform(action)) }) }, send)
        }
      )
    case .merge(let effects):
      return Effect<NewAction>(
        operation: .merge(effects.map { $0.map(transform, around: around) }))
    case .concatenate(let effects):
      return Effect<NewAction>(
        operation: .concatenate(effects.map { $0.map(transform, around: around) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<NewAction>(
        operation: .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect.map(transform, around: around))
      )
    case .cancel(let id):
      return Effect<NewAction>(operation: .cancel(id: id))
    case .observed(let effect, let observation):
      // `map` keeps the runs and their order, so the numbers stay the same.
      return Effect<NewAction>(
        operation: .observed(effect.map(transform, around: around), observation))
    }
  }

  @usableFromInline
  package var isNone: Bool {
    // Not `.observed`: `observed(by:)` never wraps `.none`, and every send asks this.
    if case .none = operation { return true }
    return false
  }
}

/// A shorthand for the effect type of a reducer.
public typealias EffectOf<R: Reducer> = Effect<R.Action>

/// Carries a value that is only ever touched on the store's actor across a `Sendable` boundary.
///
/// Actions need not be `Sendable` (TCA does not require it); effects hold them only to hand them
/// back to the store that created them.
// unchecked: actions need not be Sendable, as in TCA; a box only carries one back to its store
struct SendableBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
