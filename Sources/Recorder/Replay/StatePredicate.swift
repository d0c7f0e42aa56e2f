import TraceJSON

/// A condition on a state, as `tca-replay shrink --until` takes it:
///
/// ```
/// /cart/0/quantity > 3
/// /todos[id=7]/isComplete == true
/// /coupon != nil
/// /alert                      ; present, and neither nil nor false
/// ```
///
/// The left side is a state path (a JSON Pointer, whose array elements may be named by id as
/// the tool prints ids: `[id=UUID(3)]`); the right side a JSON value, `nil` for JSON's `null`,
/// or a value as the tool prints it (``SwiftValueReader`` without types):
///
/// ```
/// /timer/elapsed >= .seconds(2)             ; a Duration: its encoded pair
/// /savedAt > 2026-11-27T15:40:00Z           ; a Date: its seconds since 2001
/// /selection == UUID(3)                     ; a UUID: its text; 3F2A…9B1C matches those ends
/// ```
///
/// `<`, `<=`, `>` and `>=` compare numbers with numbers, strings with strings and lists of
/// numbers in order (a `Duration`'s pair); anything else makes them false. `==` and `!=` compare
/// any two values. A path that leads nowhere has the value `nil`.
package struct StatePredicate: Sendable, Equatable {
  package enum Comparison: String, Sendable, CaseIterable {
    case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">="
    case less = "<", greater = ">"
  }

  /// The predicate as written.
  package let text: String
  package let path: StatePath
  /// The comparison and the value compared with; `nil`: the path's value is truthy.
  package private(set) var test: (comparison: Comparison, value: JSONValue)?
  /// A shortened UUID compared with (`3F2A…9B1C`): equal to a string with those ends.
  private var elided: String?
  /// The value as typed, when it was read as the tool prints values rather than as JSON.
  private var printedValue: String?

  /// Why a predicate could not be read, in one line.
  package struct ParseError: Error, Equatable {
    package var message: String
  }

  /// Reads a predicate.
  package init(_ text: String) throws(ParseError) {
    self.text = text
    let trimmed = text.trimmingSpaces
    // The first operator after the path; paths hold none of these characters outside `[id=…]`.
    var found: (comparison: Comparison, range: Range<String.Index>)?
    var inBrackets = false
    var index = trimmed.startIndex
    scan: while index < trimmed.endIndex {
      let character = trimmed[index]
      if character == "[" { inBrackets = true }
      if character == "]" { inBrackets = false }
      if !inBrackets {
        // Two-character operators first, so that `<=` is not read as `<`.
        for comparison in Comparison.allCases where trimmed[index...].hasPrefix(comparison.rawValue) {
          let end = trimmed.index(index, offsetBy: comparison.rawValue.count)
          found = (comparison, index..<end)
          break scan
        }
      }
      index = trimmed.index(after: index)
    }
    let pathText = found.map { String(trimmed[..<$0.range.lowerBound]) } ?? trimmed
    guard !pathText.trimmingSpaces.isEmpty else {
      throw ParseError(message: "a condition starts with a state path, like /count")
    }
    guard let path = StatePath(reading: pathText.trimmingSpaces) else {
      let shown = SwiftValueParser.shown(pathText.trimmingSpaces.prefix(60))
        + (pathText.count > 60 ? "…" : "")
      throw ParseError(
        message: "'\(shown)' is not a state path: write /member/0/member, "
          + "or /list[id=7]/member"
      )
    }
    self.path = path
    guard let found else {
      test = nil
      return
    }
    let valueText = String(trimmed[found.range.upperBound...]).trimmingSpaces
    guard !valueText.isEmpty else {
      throw ParseError(message: "nothing to compare with after '\(found.comparison.rawValue)'")
    }
    if valueText == "nil" {
      test = (found.comparison, .null)
    } else if let value = try? JSONValue(parsing: Array(valueText.utf8)) {
      test = (found.comparison, value)
    } else if case .elided(let prefix, let suffix)? = PrintedForm.uuid(reading: valueText) {
      elided = prefix + "…" + suffix
      test = (found.comparison, .string(prefix + "…" + suffix))
    } else {
      do throws(SwiftValue.ReadError) {
        test = (found.comparison, try SwiftValueReader().json(valueText, type: nil))
        printedValue = valueText
      } catch {
        let shown =
          SwiftValueParser.shown(valueText.prefix(40)) + (valueText.count > 40 ? "…" : "")
        throw ParseError(
          message: "'\(shown)' is not a JSON value or nil, nor a value as the tool prints it "
            + "(\(error.message)); quote a string: \"text\""
        )
      }
    }
  }

  /// The predicate with its printed value read by the type at its path, as the printer wrote
  /// values of that type: a raw-valued enum's `.completed` is its raw value. Unchanged for a
  /// JSON value, or a path or value the types do not describe.
  package func typed(stateType: String, schema: TypeSchema) -> StatePredicate {
    guard let printedValue, let test, let type = schema.valueType(at: path, in: stateType),
      let value = try? SwiftValueReader(schema: schema).json(printedValue, type: type)
    else { return self }
    var typed = self
    typed.test = (test.comparison, value)
    return typed
  }

  /// Whether the predicate holds of `state`.
  package func holds(in state: JSONValue) -> Bool {
    let value = path.resolve(in: state) ?? .null
    guard let (comparison, expected) = test else {
      return value != .null && value != .bool(false)
    }
    let equal =
      value == expected
      || elided.map { StatePath.ElementID.elidedText($0, matches: value.stringValue ?? "") } == true
    switch comparison {
    case .equal: return equal
    case .notEqual: return !equal
    default: break
    }
    guard let order = Self.order(value, expected) else { return false }
    switch comparison {
    case .less: return order < 0
    case .lessOrEqual: return order <= 0
    case .greater: return order > 0
    default: return order >= 0
    }
  }

  /// -1, 0 or 1 for two numbers, two strings or two lists of numbers (in order, as a
  /// `Duration`'s high and low words); `nil` for values with no order.
  private static func order(_ left: JSONValue, _ right: JSONValue) -> Int? {
    if let left = left.doubleValue, let right = right.doubleValue {
      return left < right ? -1 : left > right ? 1 : 0
    }
    if let left = left.stringValue, let right = right.stringValue {
      return left < right ? -1 : left > right ? 1 : 0
    }
    guard let left = left.arrayValue, let right = right.arrayValue, left.count == right.count,
      !left.isEmpty
    else { return nil }
    for (a, b) in zip(left, right) {
      // Exact for 64-bit words, which a double would round.
      guard let order = wordOrder(a, b) else { return nil }
      if order != 0 { return order }
    }
    return 0
  }

  private static func wordOrder(_ left: JSONValue, _ right: JSONValue) -> Int? {
    func wide(_ value: JSONValue) -> Int128? {
      switch value {
      case .integer(let number): Int128(number)
      case .unsignedInteger(let number): Int128(number)
      default: nil
      }
    }
    if let a = wide(left), let b = wide(right) { return a < b ? -1 : a > b ? 1 : 0 }
    guard let a = left.doubleValue, let b = right.doubleValue else { return nil }
    return a < b ? -1 : a > b ? 1 : 0
  }

  package static func == (lhs: Self, rhs: Self) -> Bool { lhs.text == rhs.text }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
