import Synchronization

/// The dependencies an effect's run reads, named by their keys' types (`ContinuousClockKey`,
/// `NumberFactClient`), gathered while a recorder observes the run.
///
/// A recorder writes them with the run's end, so that `gen-test` can tell an effect it can run
/// for real in a test (one that reads only a clock) from one whose clients it cannot reproduce.
package final class EffectDependencyReads: Sendable {
  /// The reads of the observed run on this task, if any.
  @TaskLocal package static var current: EffectDependencyReads?

  private let names = Mutex<Set<String>>([])

  package init() {}

  func insert(_ name: String) {
    names.withLock { _ = $0.insert(name) }
  }

  /// The names read so far, sorted, so that the trace's bytes are stable.
  package var sorted: [String] {
    names.withLock { $0.sorted() }
  }
}
