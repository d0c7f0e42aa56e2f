import Synchronization

/// The identity of an element of a ``StackState``, given when the element is pushed.
///
/// Ids come from `@Dependency(\.stackElementID)`, which counts up from 0, so tests name
/// elements with integer literals:
///
/// ```swift
/// await store.send(.path(.element(id: 0, action: .saveButtonTapped))) {
///   $0.path[id: 0]?.isSaving = true
/// }
/// ```
///
/// It encodes as that integer.
public struct StackElementID: Hashable, Comparable, Sendable, Codable,
  ExpressibleByIntegerLiteral, CustomStringConvertible
{
  /// The number of the element: the position of its push in the count of pushes.
  public let generation: Int

  /// Creates the id of the element pushed as number `generation`.
  public init(generation: Int) {
    self.generation = generation
  }

  /// Creates an id from an integer literal, as tests write them.
  public init(integerLiteral value: Int) {
    self.init(generation: value)
  }

  public init(from decoder: any Decoder) throws {
    self.init(generation: try decoder.singleValueContainer().decode(Int.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(generation)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.generation < rhs.generation }

  /// The number, as the integer literal a test writes.
  public var description: String { "\(generation)" }
}

extension StackElementID: CustomDumpStringConvertible {
  package var customDumpDescription: String { "#\(generation)" }
}

/// Gives each pushed stack element its id: `@Dependency(\.stackElementID)`.
///
/// Both the live and the test value count up from 0; every store starts its own count, so the
/// ids in a test do not depend on the tests before it.
public struct StackElementIDGenerator: Sendable {
  private let _next: @Sendable () -> Int
  private let _peek: @Sendable () -> Int
  private let _skip: @Sendable (Int) -> Void

  /// A generator from three functions: the next generation (consumed), the next generation
  /// (not consumed), and making the next one at least a given one plus 1.
  package init(
    next: @escaping @Sendable () -> Int,
    peek: @escaping @Sendable () -> Int,
    skipPast: @escaping @Sendable (Int) -> Void
  ) {
    self._next = next
    self._peek = peek
    self._skip = skipPast
  }

  /// A generator counting up from `first`.
  public static func incrementing(from first: Int = 0) -> Self {
    let counter = Counter(first)
    return Self(next: counter.next, peek: counter.peek, skipPast: counter.skip(past:))
  }

  /// The next id, consumed.
  public func next() -> StackElementID {
    let id = StackElementID(generation: _next())
    DependencyTap.current?.record(.stackElementID(id.generation))
    return id
  }

  /// The id `next()` would give, not consumed.
  public func peek() -> StackElementID {
    StackElementID(generation: _peek())
  }

  /// A generator that starts where this one stands, and counts on its own.
  package func incrementingCopy() -> Self {
    .incrementing(from: _peek())
  }

  /// Makes the next id at least `id + 1`, after a `push(id:state:)` with an id of its own.
  func skip(past id: StackElementID) {
    _skip(id.generation)
  }

  private final class Counter: Sendable {
    private let value: Mutex<Int>

    init(_ value: Int) { self.value = Mutex(value) }

    @Sendable func next() -> Int {
      value.withLock { value in
        defer { value += 1 }
        return value
      }
    }

    @Sendable func peek() -> Int { value.withLock { $0 } }

    @Sendable func skip(past generation: Int) {
      value.withLock { $0 = max($0, generation + 1) }
    }
  }
}

private enum StackElementIDKey: DependencyKey, BuiltInDependencyKey {
  static var liveValue: StackElementIDGenerator { .incrementing() }
  static var testValue: StackElementIDGenerator { .incrementing() }
}

extension DependencyValues {
  /// The generator that gives pushed stack elements their ids; see ``StackElementID``.
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDKey.self] }
    set { self[StackElementIDKey.self] = newValue }
  }
}
