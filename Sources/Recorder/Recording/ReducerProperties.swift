/// The stored properties of a reducer that `Feature()` cannot supply: every one but its
/// `@Dependency`s, read with `Mirror` once, as recording starts.
@usableFromInline
enum ReducerProperties {
  /// The names of `reducer`'s stored properties that are not `@Dependency` wrappers, in order.
  @usableFromInline
  static func names(of reducer: Any) -> [String] {
    Mirror(reflecting: reducer).children.compactMap { child in
      guard let label = child.label else { return nil }
      let type = String(reflecting: Swift.type(of: child.value))
      return type.hasPrefix("Architecture.Dependency<") ? nil : label
    }
  }
}
