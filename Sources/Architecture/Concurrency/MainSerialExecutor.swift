/// Runs every job of the tasks that prefer it on the main queue, where the main actor runs, one
/// at a time and in the order the jobs arrive: how a ``TestStore`` runs effects serially, as
/// TCA's `useMainSerialExecutor` does.
///
/// TCA swaps a global hook of the Swift runtime so that every task in the process runs on the
/// main thread. A hook is process-wide, and Swift Testing runs tests in parallel in one process,
/// so here only the tasks that prefer this executor (SE-0417 task executor preference) run on
/// the main queue: their nonisolated code, their child tasks (`async let`, task groups) and the
/// default actors they call. A `Task { … }` or `Task.detached` they start does not inherit the
/// preference and runs in parallel, as any task does outside a test.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class MainSerialExecutor: TaskExecutor {
  /// The one instance: there is one main actor.
  static let shared = MainSerialExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    // The main queue, which the main actor runs on too, is first in, first out: jobs run in the
    // order they came. Run as this task executor's, nonisolated code calls nonisolated code
    // without a hop; run as the main actor's, every such call went back through the queue.
    let job = UnownedJob(job)
    DispatchQueue.main.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
