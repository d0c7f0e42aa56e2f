// Temporary stand-in until the custom dump branch merges.
package func customDump(_ value: Any) -> String { String(reflecting: value) }
package func diff<T>(_ lhs: T, _ rhs: T) -> String? {
  let l = customDump(lhs), r = customDump(rhs)
  return l == r ? nil : "− \(l)\n+ \(r)"
}
