import Foundation
import Synchronization

extension UUIDGenerator {
  /// A generator that hands out `uuids` in order, as a recorded session read them.
  ///
  /// Asking for more than it holds is reported as a test failure, and answered with a random
  /// UUID.
  ///
  /// ```swift
  /// $0.uuid = .sequence([UUID(counting: 4), UUID(counting: 5)])
  /// ```
  public static func sequence(_ uuids: [UUID]) -> Self {
    let values = RecordedValues(uuids, name: "UUIDGenerator.sequence")
    return Self { values.next() ?? UUID() }
  }
}

extension DateGenerator {
  /// A generator that hands out `dates` in order, as a recorded session read them.
  ///
  /// Asking for more than it holds is reported as a test failure, and answered with the last
  /// date.
  ///
  /// ```swift
  /// $0.date = .sequence([
  ///   Date(timeIntervalSinceReferenceDate: 0),
  ///   Date(timeIntervalSinceReferenceDate: 1),
  /// ])
  /// ```
  public static func sequence(_ dates: [Date]) -> Self {
    let values = RecordedValues(dates, name: "DateGenerator.sequence")
    return Self { values.next() ?? dates.last ?? Date(timeIntervalSinceReferenceDate: 0) }
  }
}

/// A random number generator that hands out recorded numbers in order.
///
/// Override `withRandomNumberGenerator` with it to replay what a session read:
///
/// ```swift
/// $0.withRandomNumberGenerator = WithRandomNumberGenerator(
///   SequenceRandomNumberGenerator([12_345, 67_890])
/// )
/// ```
///
/// Asking for more numbers than it holds is reported as a test failure, and answered with 0.
public struct SequenceRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private let values: RecordedValues<UInt64>

  /// Creates a generator that returns `numbers`, in order, from `next()`.
  public init(_ numbers: [UInt64]) {
    values = RecordedValues(numbers, name: "SequenceRandomNumberGenerator")
  }

  /// The next recorded number.
  public mutating func next() -> UInt64 { values.next() ?? 0 }
}

/// Recorded values handed out one at a time, from any thread.
private final class RecordedValues<Value: Sendable>: Sendable {
  private let values: [Value]
  private let name: String
  private let position = Mutex(0)

  init(_ values: [Value], name: String) {
    self.values = values
    self.name = name
  }

  /// The next value, or `nil` (reported) when all were handed out.
  func next() -> Value? {
    let value: Value? = position.withLock { position in
      guard position < values.count else { return nil }
      defer { position += 1 }
      return values[position]
    }
    if value == nil {
      let message = "\(name) was asked for more values than the \(values.count) it was given."
      // At the test store's step when one is reducing: that is where the extra read is.
      if let site = CallSite.reducing {
        reportIssue(
          message, fileID: site.fileID, filePath: site.filePath, line: site.line,
          column: site.column)
      } else {
        reportIssue(message)
      }
    }
    return value
  }
}
