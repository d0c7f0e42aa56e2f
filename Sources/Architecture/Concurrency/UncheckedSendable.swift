/// Wraps a value that is not `Sendable` to pass it where `Sendable` is required, unchecked.
///
/// ```swift
/// let formatter = UncheckedSendable(NumberFormatter())
/// return .run { _ in print(formatter.value.string(from: 42) ?? "") }
/// ```
///
/// The compiler no longer checks the value's use across tasks: only wrap values that are used
/// safely, such as ones never mutated after being shared.
@dynamicMemberLookup
@propertyWrapper
// unchecked: the type's purpose: its user vouches for the value, as in ConcurrencyExtras
public struct UncheckedSendable<Value>: @unchecked Sendable {
  /// The wrapped value.
  public var value: Value

  /// Wraps `value`.
  public init(_ value: Value) {
    self.value = value
  }

  /// Wraps `wrappedValue`, as a property wrapper.
  public init(wrappedValue: Value) {
    self.value = wrappedValue
  }

  /// The wrapped value, as a property wrapper.
  public var wrappedValue: Value {
    get { value }
    set { value = newValue }
  }

  /// The wrapper itself, as `$property`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// Reads a property of the wrapped value.
  public subscript<Subject>(dynamicMember keyPath: KeyPath<Value, Subject>) -> Subject {
    value[keyPath: keyPath]
  }

  /// Reads and writes a property of the wrapped value.
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Subject {
    get { value[keyPath: keyPath] }
    set { value[keyPath: keyPath] = newValue }
  }
}

extension UncheckedSendable: Equatable where Value: Equatable {}
extension UncheckedSendable: Hashable where Value: Hashable {}

extension UncheckedSendable: Encodable where Value: Encodable {
  /// Encodes the wrapped value alone.
  public func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
  }
}

extension UncheckedSendable: Decodable where Value: Decodable {
  /// Decodes the wrapped value alone.
  public init(from decoder: any Decoder) throws {
    self.init(try Value(from: decoder))
  }
}
