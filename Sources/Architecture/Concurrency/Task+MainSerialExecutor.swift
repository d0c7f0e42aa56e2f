extension Task where Failure == any Error {
  /// Starts an unstructured task that runs serially on the main queue when the current task
  /// does, and on the global executor otherwise: for helpers such as `withTaskCancellation`
  /// that run an effect's work in a task of their own.
  static func inheritingMainSerialExecutor(
    operation: @escaping @Sendable () async throws -> Success
  ) -> Self {
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
      return Task { try await operation() }
    }
    let executor = MainSerialExecutor.shared
    let isSerial = withUnsafeCurrentTask {
      $0?.unownedTaskExecutor == executor.asUnownedTaskExecutor()
    }
    return isSerial
      ? Task(executorPreference: executor) { try await operation() }
      : Task { try await operation() }
  }
}
