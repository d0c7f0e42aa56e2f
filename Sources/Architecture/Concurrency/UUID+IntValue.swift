import Foundation

extension UUID {
  /// The UUID whose last 12 hex digits are `intValue`, as swift-dependencies' `UUID(_:)` makes.
  ///
  /// Tests of features that use the incrementing UUID generator compare against these:
  ///
  /// ```swift
  /// UUID(0)   // 00000000-0000-0000-0000-000000000000
  /// UUID(10)  // 00000000-0000-0000-0000-00000000000A
  /// ```
  ///
  /// - Precondition: `intValue` is not negative and fits in 12 hex digits.
  public init(_ intValue: Int) {
    precondition(
      intValue >= 0 && intValue < 1 << 48, "UUID(\(intValue)): expected 0 ..< 2^48"
    )
    self.init(counting: UInt64(intValue))
  }
}
