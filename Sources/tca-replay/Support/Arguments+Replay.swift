extension Arguments {
  /// The value of an option that must be a positive number of seconds.
  func seconds(_ option: String, default value: Double) throws(UsageError) -> Duration {
    guard let text = self.value(option) else { return .milliseconds(Int64(value * 1000)) }
    // Up to a million seconds (11 days): more is no limit at all, and infinity or a huge
    // number would overflow the conversion to a duration.
    guard let number = Double(text), number > 0, number <= 1_000_000 else {
      throw UsageError(
        message: "'\(option)' takes a number of seconds above 0 and up to 1000000, not '\(text)'"
      )
    }
    return .milliseconds(max(Int64(number * 1000), 1))
  }

  /// The value of an option that must be a non-negative whole number.
  func count(_ option: String, default value: Int) throws(UsageError) -> Int {
    guard let text = self.value(option) else { return value }
    guard let number = Int(text), number >= 0 else {
      throw UsageError(message: "'\(option)' takes a whole number, not '\(text)'")
    }
    return number
  }
}
