/// `lhs == rhs` when `T` is `Equatable`, else `nil`.
///
/// Asks the type rather than casting the value: on Linux a value can cast to `any Equatable` by
/// bridging (an error to `NSError`), and the bridged equality is not the value's.
func equalIfEquatable<T>(_ lhs: T, _ rhs: Any) -> Bool? {
  guard let equatable = T.self as? any Equatable.Type else { return nil }
  return equatable.isEqual(lhs, rhs)
}

extension Equatable {
  fileprivate static func isEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    guard let lhs = lhs as? Self, let rhs = rhs as? Self else { return false }
    return lhs == rhs
  }
}
