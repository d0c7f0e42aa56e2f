import Foundation

/// Listens to the nondeterministic values the built-in dependencies hand out while a reducer
/// runs: UUIDs, dates and random numbers.
///
/// A recorder opens a tap around each reduce so the values land in that step of the trace; a
/// replay feeds them back so the step reproduces exactly.
@usableFromInline
package final class DependencyTap: @unchecked Sendable {
  /// A value a dependency handed out.
  @usableFromInline
  package enum Value: Sendable, Equatable {
    case uuid(UUID)
    case date(Date)
    case random(UInt64)
    /// The id a stack element was given when it was pushed.
    case stackElementID(Int)
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
    box.tap = self
    defer { box.tap = outer }
    let result = try body()
    return (values, result)
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
