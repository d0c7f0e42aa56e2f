import Foundation

/// Listens to the nondeterministic values the built-in dependencies hand out while a reducer
/// runs: UUIDs, dates and random numbers.
///
/// A recorder opens a tap around each reduce so the values land in that step of the trace; a
/// replay feeds them back so the step reproduces exactly.
package final class DependencyTap: @unchecked Sendable {
  /// A value a dependency handed out.
  package enum Value: Sendable, Equatable {
    case uuid(UUID)
    case date(Date)
    case random(UInt64)
  }

  /// The tap of the reduce running in this task, if any.
  @TaskLocal package static var current: DependencyTap?

  private let lock = Lock()
  private var values: [Value] = []
  private var isOpen = true

  package init() {}

  func record(_ value: Value) {
    lock.withLock {
      if isOpen { values.append(value) }
    }
  }

  /// Stops listening and returns what was heard. Effects started by the reduce inherit the
  /// tap; what they read later belongs to no step.
  package func close() -> [Value] {
    lock.withLock {
      isOpen = false
      return values
    }
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
