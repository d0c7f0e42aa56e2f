#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How a dump writes the values it prints on one line or as a literal: strings, dates, enum
/// case names, and the order of unordered collections.
enum DumpFormatting {
  /// The delimiters of a multi-line string literal for `content`: `"""` when the content can be
  /// written as is, otherwise a raw literal's `#"""` … `"""#`, with as many `#` as it takes for
  /// no backslash or quote in the content to read as an escape or a terminator.
  static func multilineDelimiters(for content: String) -> (open: String, close: String) {
    guard content.contains("\\") || content.contains("\"\"\"") else {
      return ("\"\"\"", "\"\"\"")
    }
    var hashes = "#"
    while content.contains("\"" + hashes) || content.contains("\\" + hashes) {
      hashes += "#"
    }
    return (hashes + "\"\"\"", "\"\"\"" + hashes)
  }

  /// `date` in ISO 8601, UTC, with milliseconds: `2009-02-13T23:31:30.000Z`.
  ///
  /// Computed from the civil calendar directly, so it needs no formatter, time zone or locale
  /// and prints the same on every platform.
  static func iso8601(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded()
    guard milliseconds.isFinite, abs(milliseconds) < 1e17 else { return "\(date)" }
    let total = Int64(milliseconds)
    let millisecondsPerDay: Int64 = 86_400_000
    var days = total / millisecondsPerDay
    var timeOfDay = total % millisecondsPerDay
    if timeOfDay < 0 {
      timeOfDay += millisecondsPerDay
      days -= 1
    }
    let (year, month, day) = civilDate(daysSince1970: days)
    let hour = timeOfDay / 3_600_000
    let minute = timeOfDay / 60_000 % 60
    let second = timeOfDay / 1_000 % 60
    let millisecond = timeOfDay % 1_000
    let yearText = (0...9_999).contains(year) ? padded(year, 4) : String(year)
    return "\(yearText)-\(padded(month, 2))-\(padded(day, 2))"
      + "T\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
      + ".\(padded(millisecond, 3))Z"
  }

  /// The proleptic Gregorian date `days` days after 1970-01-01.
  ///
  /// Counts in 400-year eras of 146,097 days with years starting on 1 March, so that the leap
  /// day falls at the end of a year and months have a fixed pattern of lengths.
  private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
    let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// The name of the case `value` holds, if `value` is an enum, whatever its conformances.
  ///
  /// `String(describing:)` would give a `CustomStringConvertible` enum's description instead.
  static func enumCaseName(_ value: Any) -> String? {
    func caseName<T>(_ value: T) -> String? {
      swiftEnumCaseName(value).map { String(cString: $0) }
    }
    return _openExistential(value, do: caseName)
  }
}

/// The Swift runtime's name for the case an enum value holds, as `dump` and `print` use it.
@_silgen_name("swift_EnumCaseName")
private func swiftEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

/// The order a dump lists the entries of an unordered collection in, by their dumped text.
///
/// Numbers sort by value (so `2` before `10`) ahead of everything else, which sorts by text:
/// a total order, so that dumping a dictionary gives the same text whatever its hash seed.
struct DumpSortKey: Comparable {
  /// The dumped text read as a number, if it is one.
  let number: Double?
  /// The dumped text.
  let text: String

  init(_ text: String) {
    self.text = text
    let number = Double(text)
    self.number = number?.isNaN == true ? nil : number
  }

  static func < (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.number, rhs.number) {
    case let (left?, right?) where left != right: return left < right
    case (.some, nil): return true
    case (nil, .some): return false
    default: return lhs.text < rhs.text
    }
  }
}
