/// A property wrapper that reads a dependency from the current ``DependencyValues``.
///
/// ```swift
/// struct CounterFeature: Reducer {
///   @Dependency(\.continuousClock) var clock
///   @Dependency(\.numberFact) var numberFact
///   …
/// }
/// ```
///
/// The value is read when the property is accessed, so a reducer sees the dependencies of the
/// store that runs it, and an effect sees the ones captured when it was created.
@propertyWrapper
public struct Dependency<Value>: Sendable {
  private let keyPath: KeyPath<DependencyValues, Value> & Sendable
  private let fileID: StaticString
  private let filePath: StaticString
  private let line: UInt
  private let column: UInt

  /// Creates a dependency property that reads the value at `keyPath`.
  public init(
    _ keyPath: KeyPath<DependencyValues, Value> & Sendable,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.keyPath = keyPath
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// Creates a dependency property for a key type used directly, without a key path.
  public init<Key: TestDependencyKey>(
    _ key: Key.Type,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Key.Value == Value {
    self.init(\DependencyValues.[key: KeyHolder<Key>()], fileID: fileID, filePath: filePath,
              line: line, column: column)
  }

  /// The current value of the dependency.
  public var wrappedValue: Value {
    let values = DependencyValues._current
    // A recording or replay names the property an app's client is read through.
    if let tap = DependencyTap.current { tap.pendingKeyPath = keyPath }
    guard values.context == .test else { return values[keyPath: keyPath] }
    let access = DependencyAccess(
      propertyName: DependencyTap.propertyName(of: keyPath),
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
    return DependencyAccess.$current.withValue(access) { values[keyPath: keyPath] }
  }
}

/// Lets ``Dependency/init(_:fileID:filePath:line:column:)-3k2x9`` form a key path to a key type.
struct KeyHolder<Key: TestDependencyKey>: Hashable, Sendable {
  static func == (_: Self, _: Self) -> Bool { true }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(Key.self)) }
}

extension DependencyValues {
  subscript<Key: TestDependencyKey>(key holder: KeyHolder<Key>) -> Key.Value {
    self[Key.self]
  }
}
