extension JSONValue {
  /// About how many bytes the value's JSON text takes, counted only until the count passes
  /// `limit`; the result is then some number above `limit`.
  ///
  /// Copy-on-write lets a value share its parts: after a few `copy` operations, a small value in
  /// memory can stand for gigabytes of text. Stopping at `limit` keeps the count from walking
  /// all of them. Numbers count their digits; the count is exact for strings without escapes.
  package func jsonSize(upTo limit: Int) -> Int {
    var total = 0
    _ = addSize(to: &total, limit: limit)
    return total
  }

  /// How many decimal digits `value` has: counted, not printed, as this runs over whole states.
  private static func digits(_ value: UInt64) -> Int {
    var count = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      count += 1
    }
    return count
  }

  /// Adds the value's size to `total`; `false` once `total` is past `limit`.
  private func addSize(to total: inout Int, limit: Int) -> Bool {
    switch self {
    case .null: total += 4
    case .bool(let value): total += value ? 4 : 5
    case .integer(let value): total += Self.digits(value.magnitude) + (value < 0 ? 1 : 0)
    case .unsignedInteger(let value): total += Self.digits(UInt64(value))
    case .double: total += 8
    case .string(let text): total += text.utf8.count + 2
    case .array(let elements):
      total += 1 + max(elements.count, 1)
      for element in elements where !element.addSize(to: &total, limit: limit) { return false }
    case .object(let object):
      total += 1 + max(object.count, 1)
      for (key, value) in object {
        total += key.utf8.count + 3
        if !value.addSize(to: &total, limit: limit) { return false }
      }
    }
    return total <= limit
  }
}
