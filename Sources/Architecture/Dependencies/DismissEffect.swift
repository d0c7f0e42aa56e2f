/// Dismisses the feature that reads it: the nearest presented feature (`ifLet` over a
/// `PresentationState`) or stack element (`forEach` over a `StackState`).
///
/// ```swift
/// struct EditorFeature: Reducer {
///   @Dependency(\.dismiss) var dismiss
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       switch action {
///       case .closeButtonTapped:
///         return .run { _ in await self.dismiss() }
///       …
///       }
///     }
///   }
/// }
/// ```
///
/// Call it from an effect. The parent receives `.dismiss` (or `.popFrom(id:)` for a stack
/// element), which clears the child's state and cancels its effects, the calling effect
/// included. Outside a presentation it reports an issue and does nothing.
public struct DismissEffect: Sendable {
  private let dismiss: (@MainActor @Sendable () -> Void)?

  /// Creates a dismiss effect that runs `dismiss` instead of dismissing the presented feature:
  /// for tests of a feature on its own.
  ///
  /// ```swift
  /// let isDismissed = LockIsolated(false)
  /// let store = TestStore(initialState: EditorFeature.State()) {
  ///   EditorFeature()
  /// } withDependencies: {
  ///   $0.dismiss = DismissEffect { isDismissed.setValue(true) }
  /// }
  /// ```
  public init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.dismiss = dismiss
  }

  init() {
    self.dismiss = nil
  }

  /// Dismisses the presented feature this effect runs in.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    if let dismiss {
      await dismiss()
      return
    }
    guard let presentation = Presentation.current else {
      reportIssue(
        """
        A reducer requested dismissal at "\(fileID):\(line)", but couldn't be dismissed. …

        This is generally considered an application logic error, and can happen when a reducer \
        assumes it runs in a presentation context. If a reducer can run at both the root level \
        of an application, as well as in a presentation destination, use \
        @Dependency(\\.isPresented) to determine if the reducer is being presented before \
        calling @Dependency(\\.dismiss).
        """,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
      return
    }
    await presentation.dismiss()
  }
}

extension DismissEffect {
  /// Dismisses the presented feature this effect runs in; the animation is accepted and does
  /// nothing on Linux.
  public func callAsFunction(
    animation: Animation?,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await self(fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The presentation an effect runs in: how to dismiss it. Set by `ifLet` and `forEach` over
/// presentation and stack state around each of the child's `.run` operations.
struct Presentation: Sendable {
  @TaskLocal static var current: Presentation?

  let dismiss: @MainActor @Sendable () -> Void
}

extension Effect {
  /// This effect's actions mapped by `transform`, with `dismiss` as the way to dismiss the
  /// presentation inside each of its runs.
  func presented<ParentAction>(
    _ transform: @escaping @Sendable (Action) -> ParentAction,
    dismissal: @escaping @Sendable () -> ParentAction
  ) -> Effect<ParentAction> {
    map(transform, around: { operation, send in
      let presentation = Presentation { send(dismissal()) }
      await Presentation.$current.withValue(presentation) { await operation() }
    })
  }
}

private enum DismissKey: DependencyKey, BuiltInDependencyKey {
  static let liveValue = DismissEffect()
  static let testValue = DismissEffect()
}

private enum IsPresentedKey: DependencyKey, BuiltInDependencyKey {
  static let liveValue = false
  static let testValue = false
}

extension DependencyValues {
  /// Dismisses the presented feature or stack element that reads it; see ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }

  /// Whether the feature that reads it is presented (by `ifLet` over a `PresentationState`, or
  /// as a stack element), and so can be dismissed.
  ///
  /// ```swift
  /// @Dependency(\.isPresented) var isPresented
  /// @Dependency(\.dismiss) var dismiss
  /// …
  /// return .run { _ in if isPresented { await dismiss() } }
  /// ```
  public var isPresented: Bool {
    get { self[IsPresentedKey.self] }
    set { self[IsPresentedKey.self] = newValue }
  }
}

extension DependencyValues {
  /// Runs a presented child's reducer with `isPresented` set, so its effects capture it too.
  static func withPresentation<R>(_ operation: () -> R) -> R {
    var values = _current
    if values.isPresented { return operation() }
    values.isPresented = true
    return $_current.withValue(values, operation: operation)
  }
}
