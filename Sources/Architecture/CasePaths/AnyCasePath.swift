/// A path from an enum to the value associated with one of its cases: an embed and an extract.
///
/// A case path is to an enum case what a key path is to a property. `Scope` and `forEach` use
/// one to pick a child feature's actions out of the parent's:
///
/// ```swift
/// enum AppAction {
///   case counter(CounterAction)
///   case settingsButtonTapped
/// }
///
/// let counter = /AppAction.counter        // AnyCasePath<AppAction, CounterAction>
/// counter.extract(from: .counter(.incrementButtonTapped))  // .incrementButtonTapped
/// counter.extract(from: .settingsButtonTapped)             // nil
/// counter.embed(.decrementButtonTapped)                    // .counter(.decrementButtonTapped)
/// ```
///
/// Build one with the `/` prefix operator from a case's embed function (no extract closure needed),
/// or spell both directions out with ``init(embed:extract:)``.
public struct AnyCasePath<Root, Value>: Sendable {
  @usableFromInline let _embed: @Sendable (Value) -> Root
  @usableFromInline let _extract: @Sendable (Root) -> Value?

  /// Creates a case path from a pair of functions.
  ///
  /// ```swift
  /// let success = AnyCasePath<Result<Int, any Error>, Int>(
  ///   embed: { .success($0) },
  ///   extract: { if case let .success(value) = $0 { value } else { nil } }
  /// )
  /// ```
  ///
  /// As in case-paths 1.0, which TCA 1.3 uses, the functions need not be `@Sendable`, so ones
  /// held in plain closure properties work too.
  ///
  /// - Parameters:
  ///   - embed: A function that always succeeds in embedding a value in a root.
  ///   - extract: A function that returns the value if the root is the case, and `nil` otherwise.
  @inlinable
  public init(
    embed: @escaping (Value) -> Root,
    extract: @escaping (Root) -> Value?
  ) {
    // NB: an embed and an extract compute from their argument alone, so sharing them is safe.
    self._embed = unsafeBitCast(embed, to: (@Sendable (Value) -> Root).self)
    self._extract = unsafeBitCast(extract, to: (@Sendable (Root) -> Value?).self)
  }

  /// Returns a root built from the value: the enum case with `value` as its payload.
  ///
  /// ```swift
  /// (/AppAction.counter).embed(.incrementButtonTapped)  // .counter(.incrementButtonTapped)
  /// ```
  @inlinable
  public func embed(_ value: Value) -> Root {
    self._embed(value)
  }

  /// Returns the value in the root if the root is this path's case, and `nil` otherwise.
  ///
  /// ```swift
  /// (/AppAction.counter).extract(from: .settingsButtonTapped)  // nil
  /// ```
  @inlinable
  public func extract(from root: Root) -> Value? {
    self._extract(root)
  }

  /// Mutates the value in the root in place, or throws if the root is not this path's case.
  ///
  /// ```swift
  /// var result: Result<Int, any Error> = .success(1)
  /// try (/Result<Int, any Error>.success).modify(&result) { $0 += 1 }  // .success(2)
  /// ```
  ///
  /// - Throws: ``ExtractionFailed`` when the root is another case; the root is left unchanged.
  ///   Errors thrown by `body` are rethrown, and the root is left unchanged.
  @discardableResult
  public func modify<Result>(
    _ root: inout Root,
    _ body: (inout Value) throws -> Result
  ) throws -> Result {
    guard var value = self.extract(from: root) else { throw ExtractionFailed() }
    let result = try body(&value)
    root = self.embed(value)
    return result
  }

  /// Returns a case path from this path's root to a value inside this path's value.
  ///
  /// ```swift
  /// let increment = (/AppAction.counter).appending(path: /CounterAction.incrementBy)
  /// increment.extract(from: .counter(.incrementBy(2)))  // 2
  /// increment.embed(3)                                  // .counter(.incrementBy(3))
  /// ```
  public func appending<AppendedValue>(
    path: AnyCasePath<Value, AppendedValue>
  ) -> AnyCasePath<Root, AppendedValue> {
    AnyCasePath<Root, AppendedValue>(
      embed: { self.embed(path.embed($0)) },
      extract: { self.extract(from: $0).flatMap(path.extract(from:)) }
    )
  }

  /// Returns whether the root is this path's case, for use in `switch` patterns.
  ///
  /// ```swift
  /// switch action {
  /// case /AppAction.counter: print("a counter action")
  /// default: break
  /// }
  /// ```
  public static func ~= (pattern: Self, root: Root) -> Bool {
    pattern.extract(from: root) != nil
  }

  /// The error ``modify(_:_:)`` throws when the root is not the path's case.
  public struct ExtractionFailed: Error, Equatable {
    /// Creates the error.
    public init() {}
  }
}

extension AnyCasePath where Root == Value {
  /// The identity case path: embedding and extracting both return their argument unchanged.
  ///
  /// ```swift
  /// AnyCasePath<AppAction, AppAction>.self.extract(from: .settingsButtonTapped)  // the same
  /// ```
  public static var `self`: Self {
    Self(embed: { $0 }, extract: { $0 })
  }
}

extension AnyCasePath: CustomDebugStringConvertible {
  /// A description naming the root and value types, such as `AnyCasePath<AppAction, Int>`.
  public var debugDescription: String {
    "AnyCasePath<\(String(reflecting: Root.self)), \(String(reflecting: Value.self))>"
  }
}

/// The name TCA 1.0 code and older code used for ``AnyCasePath``.
///
/// ```swift
/// let counter: CasePath<AppAction, CounterAction> = /AppAction.counter
/// ```
public typealias CasePath<Root, Value> = AnyCasePath<Root, Value>
