import Dispatch

/// A task executor that runs one job at a time, in order, on a serial dispatch queue.
///
/// Tests of time-based code run their tasks on one, as TCA's test store runs effects serially:
/// a task woken by a test clock then runs to its next suspension before the advancing task
/// continues, so the order of events does not depend on thread scheduling.
final class SerialTestExecutor: TaskExecutor, @unchecked Sendable {
  private let queue = DispatchQueue(label: "SerialTestExecutor")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    self.queue.async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
    }
  }

  /// Starts a task on this executor.
  @discardableResult
  func task<Success: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Success
  ) -> Task<Success, any Error> {
    Task(executorPreference: self, operation: operation)
  }

  /// Runs `operation` with this executor as the task's preferred executor.
  func run<Result: Sendable>(
    _ operation: @Sendable () async throws -> Result
  ) async rethrows -> Result {
    try await withTaskExecutorPreference(self, operation: operation)
  }
}
