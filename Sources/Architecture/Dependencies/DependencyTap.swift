import Foundation

/// Listens to the nondeterministic values the built-in dependencies hand out while a reducer
/// runs: UUIDs, dates, random numbers, the machine's locale, time zone, calendar and temporary
/// directory, and the reads of the app's own clients.
///
/// A recorder opens a tap around each reduce so the values land in that step of the trace; a
/// replay feeds them back so the step reproduces exactly, and listens too, to name the clients
/// it read that nothing pinned.
@usableFromInline
// unchecked: only the thread running the reduce touches its vars (see `listen`)
package final class DependencyTap: @unchecked Sendable {
  /// A value a dependency handed out.
  @usableFromInline
  package enum Value: Sendable, Equatable {
    case uuid(UUID)
    case date(Date)
    case random(UInt64)
    /// The id a stack element was given when it was pushed.
    case stackElementID(Int)
    /// `@Dependency(\.locale)`, read once or more in the step.
    case locale(Locale)
    /// `@Dependency(\.timeZone)`, read once or more in the step.
    case timeZone(TimeZone)
    /// `@Dependency(\.calendar)`, read once or more in the step.
    case calendar(Calendar)
    /// `@Dependency(\.temporaryDirectory)`, read once or more in the step.
    case temporaryDirectory(URL)
    /// A key of the app's, read once or more in the step: its type's name, the
    /// `DependencyValues` property it was read through when the runtime can name it, and
    /// whether the value was set (by `withDependencies` or a store) rather than the default.
    case client(key: String, property: String?, isSet: Bool)
  }

  /// The tap of the reduce running on this thread, if any.
  ///
  /// Thread-local, not task-local: a reduce is synchronous, and effects it creates run later,
  /// elsewhere, and must not add to the step's values.
  package static var current: DependencyTap? {
    ThreadLocal.box.tap
  }

  // Only the thread running the reduce touches it (see `listen`), so not checked at run time.
  @exclusivity(unchecked) private var values: [Value] = []
  /// The keys read by value in this step, so each is recorded once.
  @exclusivity(unchecked) private var keysRead: [ObjectIdentifier] = []
  /// The key path the `@Dependency` being read goes through, to name a client's property.
  @exclusivity(unchecked) var pendingKeyPath: AnyKeyPath?

  package init() {}

  func record(_ value: Value) {
    values.append(value)
  }

  /// Runs `body` with this tap listening on this thread; returns what it heard and the result.
  @usableFromInline
  package func listen<R>(_ body: () throws -> R) rethrows -> (values: [Value], result: R) {
    let box = ThreadLocal.box
    let outer = box.tap
    values.removeAll(keepingCapacity: true)
    keysRead.removeAll(keepingCapacity: true)
    box.tap = self
    defer {
      box.tap = outer
      pendingKeyPath = nil
    }
    let result = try body()
    return (values, result)
  }
}

extension DependencyTap {
  /// Notes a read of `key`: a recorded key's value, or a client's name, once per step.
  ///
  /// Built-in keys that are taped when called (`uuid`, `date`) or used by effects only (clocks,
  /// `openURL`) are not noted.
  func noteRead<Key: TestDependencyKey>(_ key: Key.Type, value: Key.Value, isSet: Bool) {
    let keyPath = pendingKeyPath
    pendingKeyPath = nil
    let recorded = key as? any RecordedDependencyKey.Type
    guard recorded != nil || !(key is any BuiltInDependencyKey.Type) else { return }
    let id = ObjectIdentifier(key)
    guard !keysRead.contains(id) else { return }
    keysRead.append(id)
    if let recorded {
      if let value = recorded.tapped(value) { record(value) }
      return
    }
    record(
      .client(
        key: StableNames.withoutUnknownContexts(String(reflecting: key)),
        property: keyPath.flatMap(Self.propertyName), isSet: isSet)
    )
  }

  /// The `DependencyValues` property a key path names, when the runtime can tell: on Linux the
  /// accessors of non-exported properties have no symbol names.
  static func propertyName(of keyPath: AnyKeyPath) -> String? {
    let description = "\(keyPath)"
    let prefix = "\\DependencyValues."
    guard description.hasPrefix(prefix), !description.contains("<") else { return nil }
    return String(description.dropFirst(prefix.count))
  }
}

/// Passes a generator's numbers through, telling the tap about each one.
struct TappedRandomNumberGenerator: RandomNumberGenerator {
  var base: any RandomNumberGenerator
  let tap: DependencyTap

  mutating func next() -> UInt64 {
    let value = base.next()
    tap.record(.random(value))
    return value
  }
}
