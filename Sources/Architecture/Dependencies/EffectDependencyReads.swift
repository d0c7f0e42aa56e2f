/// The dependencies an effect's run reads, named by their keys' types (`ContinuousClockKey`,
/// `NumberFactClient`), gathered while a recorder observes the run.
///
/// A recorder writes them with the run's end, so that `gen-test` can tell an effect it can run
/// for real in a test (one that reads only a clock) from one whose clients it cannot reproduce.
package final class EffectDependencyReads: @unchecked Sendable {
  /// The reads of the observed run on this task, if any.
  @TaskLocal package static var current: EffectDependencyReads?

  private let lock = Lock()
  private var names: Set<String> = []

  package init() {}

  func insert(_ name: String) {
    lock.withLock { _ = names.insert(name) }
  }

  /// The names read so far, sorted, so that the trace's bytes are stable.
  package var sorted: [String] {
    lock.withLock { names.sorted() }
  }
}
