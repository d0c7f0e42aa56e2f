import Foundation
import Recorder
import TraceJSON

// The kinds of value several commands' options share, each with its one-line error.

extension Option where Value == Int {
  /// An option whose value is a whole number, 0 or more.
  static func count(_ name: String, value: String, help: String) -> Self {
    Self(name, value: value, help: help) { text, name throws(UsageError) in
      guard let number = Int(text), number >= 0 else {
        throw UsageError(message: "'\(name)' takes a whole number, not '\(text)'")
      }
      return number
    }
  }
}

extension Option where Value == Duration {
  /// An option whose value is a number of seconds above 0.
  static func seconds(_ name: String, value: String, help: String) -> Self {
    Self(name, value: value, help: help) { text, name throws(UsageError) in
      // More than 11 days is no limit at all, and infinity would overflow the duration.
      guard let number = Double(text), number > 0, number <= 1_000_000 else {
        throw UsageError(
          message: "'\(name)' takes a number of seconds above 0 and up to 1000000, not '\(text)'"
        )
      }
      return .milliseconds(max(Int64(number * 1000), 1))
    }
  }
}

extension Option where Value == StatePath {
  /// An option whose value is a state path such as `/todos[id=3]/title`.
  static func statePath(_ name: String, value: String, help: String) -> Self {
    Self(name, value: value, help: help) { text, _ throws(UsageError) in
      try parseStatePath(text)
    }
  }
}

extension Option where Value == ClosedRange<Int> {
  /// An option whose value is a range of steps: `a...b`, `a..b` or a single step `a`.
  static func stepRange(_ name: String, value: String, help: String) -> Self {
    Self(name, value: value, help: help) { text, name throws(UsageError) in
      for separator in ["...", ".."] {
        let parts = text.components(separatedBy: separator)
        if parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), 0 <= low,
          low <= high
        {
          return low...high
        }
      }
      if let step = Int(text), step >= 0 { return step...step }
      throw UsageError(message: "'\(name) \(text)' is not a range like 10...40")
    }
  }
}
