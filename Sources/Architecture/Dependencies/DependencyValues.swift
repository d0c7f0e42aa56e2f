#if canImport(Glibc)
  import Glibc
#endif
import Testing
import Synchronization

/// A collection of dependencies that is globally available, scoped per task.
///
/// Register a dependency with a computed property over `self[Key.self]`, read it with
/// ``Dependency``, and override it with ``withDependencies(_:operation:)-4f0k8``.
public struct DependencyValues: Sendable {
  /// The dependencies of the current task.
  @TaskLocal public static var _current = DependencyValues()

  private var storage: [ObjectIdentifier: any Sendable] = [:] {
    didSet { identity = Identity() }
  }
  /// Changes whenever `storage` does, so two sets can be told the same in O(1).
  private var identity = Identity()
  private final class Identity: Sendable {}

  /// Whether `other` is this very set of dependencies, unchanged: an O(1) check that may say
  /// `false` for equal sets.
  package func isIdentical(to other: DependencyValues) -> Bool {
    identity === other.identity
  }

  /// Creates an empty set of dependencies: every read gives the key's default for the context.
  public init() {}

  /// Reads or overrides the value of a dependency key.
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      // A recorded effect's run notes the keys it reads, which tell whether a test can run it
      // again; a reduce the effect's `send` runs is the step's, not the effect's.
      if let reads = EffectDependencyReads.current, DependencyTap.current == nil {
        reads.insert(String(describing: key))
      }
      if let value = storage[ObjectIdentifier(key)] as? Key.Value {
        DependencyTap.current?.noteRead(key, value: value, isSet: true)
        return value
      }
      let context = self.context
      let value = DefaultValues.shared.value(for: key, context: context)
      // Only a read through `@Dependency` reports: overriding a field inside
      // `withDependencies` reads the default first and must not.
      if context == .test, DependencyAccess.current != nil,
        DefaultValues.shared.isUnimplemented(key)
      {
        Self.reportMissingTestValue(
          for: key, property: (key as? any NamedDependencyKey.Type)?.propertyName)
      }
      DependencyTap.current?.noteRead(key, value: value, isSet: false)
      return value
    }
    set { storage[ObjectIdentifier(key)] = newValue }
  }

  /// The value set for `key`, as stored: no cast to `Key.Value`, no default and no read
  /// reported; `nil` when the key was not set.
  package func storedValue<Key: TestDependencyKey>(for key: Key.Type) -> (any Sendable)? {
    storage[ObjectIdentifier(key)]
  }

  /// The context defaults resolve in: live in an app, test under a test runner.
  public var context: DependencyContext {
    get { storage[ObjectIdentifier(ContextKey.self)] as? DependencyContext ?? .detected }
    set { storage[ObjectIdentifier(ContextKey.self)] = newValue }
  }

  /// Reports that a dependency without a test value was used in a test.
  ///
  /// `property` names the `DependencyValues` property for keys whose unimplemented value only
  /// reports when it is called, after the `@Dependency` read that would have named it.
  static func reportMissingTestValue<Key: TestDependencyKey>(
    for key: Key.Type, property: String? = nil
  ) {
    guard DependencyValues._current.context == .test else { return }
    let access = DependencyAccess.current
    let knownProperty = access?.propertyName ?? property
    let name = knownProperty.map { "@Dependency(\\.\($0))" } ?? "@Dependency(\(Key.self).self)"
    let property = knownProperty ?? "\(Key.self)"
    let location = access.map { "\($0.fileID):\($0.line)" } ?? "the first call of the value"
    reportIssue(
      """
      \(name) has no test implementation, but was accessed from a test context:

        Location:
          \(location)
        Key:
          \(Key.self)
        Value:
          \(Key.Value.self)

      Dependencies registered with the library are not allowed to use their default, live \
      implementations when run from tests.

      To fix, override '\(property)' with a test value. If you are using the Composable \
      Architecture, mutate the 'dependencies' property on your 'TestStore'. Otherwise, use \
      'withDependencies' to define a scope for the override. If you'd like to provide a default \
      value for all tests, implement the 'testValue' requirement of the 'DependencyKey' \
      protocol.
      """,
      fileID: access?.fileID ?? #fileID,
      filePath: access?.filePath ?? #filePath,
      line: access?.line ?? #line,
      column: access?.column ?? #column
    )
  }

  /// Notes that `key` has no test value of its own, so reading it in a test is reported.
  static func markUnimplemented<Key: TestDependencyKey>(_ key: Key.Type) {
    DefaultValues.shared.markUnimplemented(key)
  }

  private enum ContextKey {}
}

extension DependencyContext {
  /// Test when a test runner runs the process, live otherwise.
  static let detected: DependencyContext = {
    let arguments = CommandLine.arguments
    if Test.current != nil { return .test }
    if let program = arguments.first, program.hasSuffix(".xctest") || program.hasSuffix("xctest") {
      return .test
    }
    if arguments.contains(where: { $0.hasPrefix("--testing-library") }) { return .test }
    return .live
  }()
}

/// Default values, computed once per key and context, so stateful defaults keep their state.
private final class DefaultValues: Sendable {
  static let shared = DefaultValues()

  private struct CacheKey: Hashable {
    let key: ObjectIdentifier
    let context: DependencyContext
  }

  private let cache = Mutex<[CacheKey: any Sendable]>([:])
  private let unimplemented = Mutex<Set<ObjectIdentifier>>([])

  func markUnimplemented<Key>(_ key: Key.Type) {
    _ = unimplemented.withLock { $0.insert(ObjectIdentifier(key)) }
  }

  func isUnimplemented<Key>(_ key: Key.Type) -> Bool {
    unimplemented.withLock { $0.contains(ObjectIdentifier(key)) }
  }

  func value<Key: TestDependencyKey>(for key: Key.Type, context: DependencyContext) -> Key.Value {
    let cacheKey = CacheKey(key: ObjectIdentifier(key), context: context)
    if let value = cache.withLock({ $0[cacheKey] }) as? Key.Value { return value }
    // Computed outside the lock: a default may itself read dependencies.
    let value: Key.Value
    switch context {
    case .live:
      value = (key as? any DependencyKey.Type).map { liveValue(of: $0) as! Key.Value }
        ?? Key.testValue
    case .preview:
      value = Key.previewValue
    case .test:
      value = Key.testValue
    }
    return cache.withLock { cache in
      if let cached = cache[cacheKey] as? Key.Value { return cached }
      cache[cacheKey] = value
      return value
    }
  }

  private func liveValue<Key: DependencyKey>(of key: Key.Type) -> any Sendable {
    key.liveValue
  }
}

/// Where a dependency is being read, so a missing test value can be reported at the call site.
struct DependencyAccess: Sendable {
  @TaskLocal static var current: DependencyAccess?

  var propertyName: String?
  var fileID: StaticString
  var filePath: StaticString
  var line: UInt
  var column: UInt
}
