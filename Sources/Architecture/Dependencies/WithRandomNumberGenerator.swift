/// A dependency that gives controlled access to a random number generator.
///
/// ```swift
/// @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
/// let roll = withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) }
/// ```
///
/// In tests, override it with a seeded generator so results repeat.
// unchecked: `generator` is used only under `lock`; the caller's closure mutates it in place
public final class WithRandomNumberGenerator: @unchecked Sendable {
  private var generator: any RandomNumberGenerator
  private let lock = Lock()

  /// Wraps `generator`; calls are serialised, so it may be shared between tasks.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    self.generator = generator
  }

  /// Runs `work` with exclusive access to the generator.
  public func callAsFunction<R>(_ work: (inout any RandomNumberGenerator) throws -> R) rethrows
    -> R
  {
    try lock.withLock {
      guard let tap = DependencyTap.current else { return try work(&generator) }
      var tapped: any RandomNumberGenerator = TappedRandomNumberGenerator(base: generator, tap: tap)
      defer { generator = (tapped as? TappedRandomNumberGenerator)?.base ?? tapped }
      return try work(&tapped)
    }
  }
}

private enum WithRandomNumberGeneratorKey: DependencyKey, BuiltInDependencyKey {
  static var liveValue: WithRandomNumberGenerator {
    WithRandomNumberGenerator(SystemRandomNumberGenerator())
  }
  static var testValue: WithRandomNumberGenerator {
    WithRandomNumberGenerator(UnimplementedRandomNumberGenerator())
  }
}

/// Reports a missing test value on first use, then falls back to the system generator.
private struct UnimplementedRandomNumberGenerator: RandomNumberGenerator, Sendable {
  var system = SystemRandomNumberGenerator()
  mutating func next() -> UInt64 {
    DependencyValues.reportMissingTestValue(
      for: WithRandomNumberGeneratorKey.self, property: "withRandomNumberGenerator"
    )
    return system.next()
  }
}

extension DependencyValues {
  /// Gives access to a random number generator. Override it in tests with a seeded one.
  public var withRandomNumberGenerator: WithRandomNumberGenerator {
    get { self[WithRandomNumberGeneratorKey.self] }
    set { self[WithRandomNumberGeneratorKey.self] = newValue }
  }
}
