import Foundation
import Synchronization

/// A dependency that generates UUIDs: random in an app, predictable in tests.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// state.todos.append(Todo(id: uuid()))
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// Creates a generator from a closure.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// Returns a new UUID.
  public func callAsFunction() -> UUID {
    let uuid = generate()
    DependencyTap.current?.record(.uuid(uuid))
    return uuid
  }

  /// A generator of random UUIDs.
  public static let live = UUIDGenerator { UUID() }

  /// A generator that always returns `uuid`.
  public static func constant(_ uuid: UUID) -> Self { Self { uuid } }

  /// A generator that counts up from `00000000-0000-0000-0000-000000000000`.
  ///
  /// Each generator has its own count, starting at zero.
  public static var incrementing: Self {
    let counter = Counter()
    return Self { UUID(counting: counter.next()) }
  }

  private final class Counter: Sendable {
    private let value = Mutex<UInt64>(0)
    func next() -> UInt64 {
      value.withLock { value in
        defer { value += 1 }
        return value
      }
    }
  }
}

extension UUID {
  /// The UUID whose last 12 hex digits are `count`, as `UUIDGenerator.incrementing` makes.
  public init(counting count: UInt64) {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) { buffer in
      for index in 0..<6 {
        buffer[15 - index] = UInt8(truncatingIfNeeded: count >> (8 * UInt64(index)))
      }
    }
    self.init(uuid: bytes)
  }
}

private enum UUIDGeneratorKey: DependencyKey, BuiltInDependencyKey {
  static let liveValue = UUIDGenerator.live
  static var testValue: UUIDGenerator {
    UUIDGenerator {
      DependencyValues.reportMissingTestValue(for: UUIDGeneratorKey.self, property: "uuid")
      return UUID()
    }
  }
}

extension DependencyValues {
  /// Generates UUIDs. Override it in tests with ``UUIDGenerator/incrementing``.
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}
