extension AsyncStream {
  /// A stream that produces nothing and never finishes; iterating it ends when the task is
  /// cancelled.
  ///
  /// ```swift
  /// $0.screenshots = { AsyncStream.never }
  /// ```
  public static var never: Self {
    Self { _ in }
  }

  /// A stream that produces nothing and is already finished.
  public static var finished: Self {
    Self { $0.finish() }
  }
}

extension AsyncThrowingStream where Failure == any Error {
  /// A stream that produces nothing and never finishes; iterating it ends when the task is
  /// cancelled.
  public static var never: Self {
    Self { _ in }
  }

  /// A stream that produces nothing and finishes at once, by throwing `error` if given one.
  public static func finished(throwing error: Failure? = nil) -> Self {
    Self { $0.finish(throwing: error) }
  }
}
