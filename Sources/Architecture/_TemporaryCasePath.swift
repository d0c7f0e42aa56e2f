// Temporary stand-in until the case paths branch merges.
public struct AnyCasePath<Root, Value>: Sendable {
  public let embed: @Sendable (Value) -> Root
  public let extract: @Sendable (Root) -> Value?
  public init(embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?) {
    self.embed = embed
    self.extract = extract
  }
}
public prefix func / <Root, Value>(embed: @escaping @Sendable (Value) -> Root) -> AnyCasePath<Root, Value> {
  AnyCasePath(embed: embed) { root in
    let mirror = Mirror(reflecting: root)
    guard let child = mirror.children.first, let value = child.value as? Value else { return nil }
    return Mirror(reflecting: embed(value)).children.first?.label == child.label ? value : nil
  }
}
prefix operator /
