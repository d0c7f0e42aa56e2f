import Foundation
import TraceJSON

/// How the tool writes a `UUID`, a `Date` and a `Duration`, and how it reads each back: the one
/// place both directions share, so that every printed form reads back as the value it shows.
///
/// ```swift
/// PrintedForm.uuid("00000000-0000-0000-0000-000000000007")  // "UUID(7)"
/// PrintedForm.uuid(reading: "UUID(7)")                      // .exact("00000000-…-000000000007")
/// PrintedForm.uuid(reading: "3F25…9B1C")                    // .elided(prefix: "3F25", suffix: "9B1C")
/// PrintedForm.date(reading: "2026-11-27T15:40:00.250Z")     // 817_573_200.25
/// PrintedForm.duration(reading: ".milliseconds(250)")       // [0, 250000000000000000]
/// ```
package enum PrintedForm {
  // MARK: UUID

  /// The digits before a counted UUID's count: `UUIDGenerator.incrementing` makes these.
  private static let countedPrefix = "00000000-0000-0000-0000-"

  /// `UUID(7)` for the UUIDs `UUIDGenerator.incrementing` makes; `UUID(<text>)` otherwise.
  package static func uuid(_ text: String) -> String {
    if text.hasPrefix(countedPrefix),
      let count = UInt64(text.dropFirst(countedPrefix.count), radix: 16)
    {
      return "UUID(\(count))"
    }
    return "UUID(\(text))"
  }

  /// A UUID as an action label writes it: its first and last four digits, `3F2A…9B1C`.
  package static func uuidLabel(_ text: String) -> String {
    String(text.prefix(4)) + "…" + String(text.suffix(4))
  }

  /// Whether `text` has a UUID's shape: 36 characters, four of them dashes.
  static func isUUIDText(_ text: some StringProtocol) -> Bool {
    text.utf8.count == 36 && text.utf8.filter { $0 == UInt8(ascii: "-") }.count == 4
  }

  /// What a printed UUID says: the whole text, or the ends it kept.
  package enum UUIDReading: Equatable, Sendable {
    case exact(String)
    /// `UUID(3F2504E0…)` keeps a prefix; a label's `3F2A…9B1C` a prefix and a suffix.
    case elided(prefix: String, suffix: String)
  }

  /// Reads `UUID(7)`, `UUID(<text>)`, `UUID("<text>")`, `UUID(3F2504E0…)`, `3F2A…9B1C` or a
  /// bare UUID; `nil` for anything else.
  package static func uuid(reading printed: String) -> UUIDReading? {
    var text = Substring(printed)
    if text.hasPrefix("UUID("), text.hasSuffix(")") {
      text = text.dropFirst(5).dropLast()
      if text.count >= 2, text.first == "\"", text.last == "\"" {
        text = text.dropFirst().dropLast()
      }
      if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
        let count = UInt64(text)
      {
        let hex = String(count, radix: 16, uppercase: true)
        guard hex.count <= 12 else { return nil }
        return .exact(countedPrefix + String(repeating: "0", count: 12 - hex.count) + hex)
      }
    }
    if let ellipsis = text.firstIndex(of: "…") {
      let prefix = text[..<ellipsis]
      let suffix = text[text.index(after: ellipsis)...]
      guard !(prefix.isEmpty && suffix.isEmpty), isUUIDDigits(prefix), isUUIDDigits(suffix) else {
        return nil
      }
      return .elided(prefix: String(prefix), suffix: String(suffix))
    }
    return isUUIDText(text) && isUUIDDigits(text) ? .exact(String(text)) : nil
  }

  private static func isUUIDDigits(_ text: Substring) -> Bool {
    text.allSatisfy { $0 == "-" || $0.isHexDigit }
  }

  // MARK: Date

  /// A `Date`, encoded as seconds since 2001, in ISO 8601: `2026-11-27T15:40:00.250Z`; one
  /// outside the years 1 to 9999, which the format cannot spell, as its initializer.
  package static func date(_ secondsSince2001: Double) -> String {
    // 2000 and 7999 years of 365.2425 days from 2001-01-01.
    guard secondsSince2001 >= -63_113_904_000, secondsSince2001 < 252_423_993_600 else {
      return "Date(timeIntervalSinceReferenceDate: \(secondsSince2001))"
    }
    let date = Date(timeIntervalSinceReferenceDate: secondsSince2001)
    let whole = secondsSince2001.rounded(.down) == secondsSince2001
    return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
  }

  /// The seconds since 2001 of a date written as ``date(_:)`` writes one, or as
  /// `Date(timeIntervalSinceReferenceDate: 3.5)`; `nil` for anything else.
  package static func date(reading printed: String) -> Double? {
    let initializer = "Date(timeIntervalSinceReferenceDate: "
    if printed.hasPrefix(initializer), printed.hasSuffix(")") {
      return Double(printed.dropFirst(initializer.count).dropLast())
    }
    // The whole seconds by the format, the fraction as written: the sum is the double the
    // recording held whenever the printed digits were all it had.
    guard printed.hasSuffix("Z"), printed.count <= 40 else { return nil }
    var whole = printed.dropLast()
    var fraction = 0.0
    if let dot = whole.lastIndex(of: "."), whole[dot...].dropFirst().allSatisfy(\.isNumber) {
      guard let digits = Double("0" + whole[dot...]) else { return nil }
      fraction = digits
      whole = whole[..<dot]
    }
    guard let date = try? Date(String(whole) + "Z", strategy: .iso8601) else { return nil }
    return date.timeIntervalSinceReferenceDate + fraction
  }

  // MARK: Duration

  /// The attoseconds of a `Duration` as Swift encodes it: the high and low words.
  package static func attoseconds(_ json: JSONValue) -> Int128? {
    guard let parts = json.arrayValue, parts.count == 2, let high = parts[0].int64Value else {
      return nil
    }
    switch parts[1] {
    case .integer(let value) where value >= 0: return Int128(high) << 64 | Int128(value)
    case .unsignedInteger(let value): return Int128(high) << 64 | Int128(value)
    default: return nil
    }
  }

  /// The units a `Duration` is written in, largest first, with their sizes in attoseconds.
  static let durationUnits: [(String, Int128)] = [
    ("seconds", 1_000_000_000_000_000_000), ("milliseconds", 1_000_000_000_000_000),
    ("microseconds", 1_000_000_000_000), ("nanoseconds", 1_000_000_000),
  ]

  /// A `Duration`, encoded as the high and low words of its attoseconds: `.seconds(6.93)`,
  /// `.milliseconds(250)`; three significant digits in the largest unit that is at least 1.
  package static func duration(_ json: JSONValue) -> String? {
    guard let attoseconds = attoseconds(json) else { return nil }
    if attoseconds == 0 { return ".zero" }
    let magnitude = attoseconds.magnitude
    for (unit, size) in durationUnits where magnitude >= size.magnitude || unit == "nanoseconds" {
      if attoseconds % size == 0 { return ".\(unit)(\(attoseconds / size))" }
      let value = Double(attoseconds) / Double(size)
      return ".\(unit)(\(significant(value)))"
    }
    return nil
  }

  /// The encoding of a `Duration` of `amount` in `unit` (`seconds`, `milliseconds`, …), as
  /// ``duration(_:)`` writes one; `nil` for another unit or an amount out of range.
  package static func duration(unit: String, amount: String) -> JSONValue? {
    guard let (_, size) = durationUnits.first(where: { $0.0 == unit }) else { return nil }
    let attoseconds: Int128
    if let whole = Int128(amount) {
      let (product, overflow) = whole.multipliedReportingOverflow(by: size)
      guard !overflow else { return nil }
      attoseconds = product
    } else if let value = Double(amount), value.isFinite,
      abs(value * Double(size)) < 1.7e38
    {
      // Decimal digits, not the double's binary expansion: `.seconds(6.93)` is 6.93 s exactly.
      attoseconds = decimalAttoseconds(amount, size: size) ?? Int128(value * Double(size))
    } else {
      return nil
    }
    return encoded(attoseconds: attoseconds)
  }

  /// `.zero`, `.seconds(2)`, `.milliseconds(6.93)`…: the encoding of a printed duration.
  package static func duration(reading printed: String) -> JSONValue? {
    if printed == ".zero" { return encoded(attoseconds: 0) }
    guard printed.hasPrefix("."), printed.hasSuffix(")"), let open = printed.firstIndex(of: "(")
    else { return nil }
    let unit = printed[printed.index(after: printed.startIndex)..<open]
    let amount = printed[printed.index(after: open)..<printed.index(before: printed.endIndex)]
    return duration(unit: String(unit), amount: amount.filter { $0 != "_" && $0 != " " })
  }

  /// The high and low words, as `Duration`'s `Codable` writes them.
  private static func encoded(attoseconds: Int128) -> JSONValue {
    let high = Int64(truncatingIfNeeded: attoseconds >> 64)
    let low = UInt64(truncatingIfNeeded: attoseconds)
    return .array([
      .integer(high), low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low),
    ])
  }

  /// `6.93` of a unit of `size` attoseconds, digit by digit; `nil` past 18 decimals.
  private static func decimalAttoseconds(_ amount: String, size: Int128) -> Int128? {
    var text = Substring(amount)
    let negative = text.first == "-"
    if negative { text = text.dropFirst() }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1].count <= 18, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }),
      let whole = Int128(parts[0].isEmpty ? "0" : String(parts[0])),
      let decimals = Int128(parts[1].isEmpty ? "0" : String(parts[1]))
    else { return nil }
    var scale: Int128 = 1
    for _ in 0..<parts[1].count { scale *= 10 }
    let (scaled, overflow) = whole.multipliedReportingOverflow(by: size)
    let (value, overflowSum) = scaled.addingReportingOverflow(decimals * size / scale)
    guard !overflow, !overflowSum else { return nil }
    return negative ? -value : value
  }

  /// `value` to three significant digits, at least two decimals below 10, no trailing zeros.
  private static func significant(_ value: Double) -> String {
    let digits = max(0, 2 - Int(Foundation.log10(Swift.abs(value)).rounded(.down)))
    var text = String(format: "%.\(digits)f", value)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }
}
