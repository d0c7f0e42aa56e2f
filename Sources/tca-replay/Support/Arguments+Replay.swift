extension Arguments {
  /// The value of an option that must be a positive number of seconds.
  func seconds(_ option: String, default value: Double) throws(UsageError) -> Duration {
    guard let text = self.value(option) else { return .milliseconds(Int64(value * 1000)) }
    guard let number = Double(text), number > 0 else {
      throw UsageError(message: "'\(option)' takes a positive number of seconds, not '\(text)'")
    }
    return .milliseconds(Int64(number * 1000))
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
