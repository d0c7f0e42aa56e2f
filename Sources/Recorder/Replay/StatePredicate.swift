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
/// The left side is a state path (a JSON Pointer, whose array elements may be named by id); the
/// right side a JSON value, or `nil` for JSON's `null`. `<`, `<=`, `>` and `>=` compare numbers
/// with numbers and strings with strings; anything else makes them false. `==` and `!=` compare
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
  package let test: (comparison: Comparison, value: JSONValue)?

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
    guard let path = StatePath(pathText.trimmingSpaces) else {
      throw ParseError(
        message: "'\(pathText.trimmingSpaces)' is not a state path: write /member/0/member, "
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
    } else {
      throw ParseError(
        message: "'\(valueText)' is not a JSON value or nil (quote a string: \"text\")"
      )
    }
  }

  /// Whether the predicate holds of `state`.
  package func holds(in state: JSONValue) -> Bool {
    let value = path.resolve(in: state) ?? .null
    guard let (comparison, expected) = test else {
      return value != .null && value != .bool(false)
    }
    switch comparison {
    case .equal: return value == expected
    case .notEqual: return value != expected
    default: break
    }
    let order: Int
    if let left = value.doubleValue, let right = expected.doubleValue {
      order = left < right ? -1 : left > right ? 1 : 0
    } else if let left = value.stringValue, let right = expected.stringValue {
      order = left < right ? -1 : left > right ? 1 : 0
    } else {
      return false
    }
    switch comparison {
    case .less: return order < 0
    case .lessOrEqual: return order <= 0
    case .greater: return order > 0
    default: return order >= 0
    }
  }

  package static func == (lhs: Self, rhs: Self) -> Bool { lhs.text == rhs.text }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
