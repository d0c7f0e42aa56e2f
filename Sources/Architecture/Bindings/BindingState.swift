/// A property wrapper for state that a view can write directly, through a ``BindingAction``.
///
/// Mark the fields of a feature's state that controls bind to, and handle their changes with
/// ``BindingReducer`` and a ``BindableAction``:
///
/// ```swift
/// struct Settings: Reducer {
///   struct State: Equatable, Codable {
///     @BindingState var displayName = ""
///     @BindingState var isHapticsEnabled = false
///     var saveCount = 0
///   }
///   enum Action: BindableAction, Equatable, Codable {
///     case binding(BindingAction<State>)
///   }
///   var body: some ReducerOf<Self> {
///     BindingReducer()
///   }
/// }
///
/// await store.send(.set(\.$displayName, "Blob")) { $0.displayName = "Blob" }
/// ```
///
/// The projected value (`$displayName`) is the `BindingState` itself, which is what
/// ``BindingAction/set(_:_:)`` takes a key path to. A `BindingState` compares, hashes, encodes,
/// prints and dumps as its wrapped value: a state's JSON shows `"displayName": "Blob"`.
@propertyWrapper
public struct BindingState<Value> {
  /// The wrapped value, read and written through the property itself.
  public var wrappedValue: Value

  /// Set only by a probe, on a throwaway copy of a state, to learn which stored field a key path
  /// such as `\.$name` writes to; `false` in every real state. `==`, hashing, coding and dumping
  /// ignore it. A `Bool` keeps the wrapper small: `BindingState<Bool>` takes two bytes.
  var isProbeMarked = false

  /// Creates bindable state from the value it starts with: `@BindingState var name = ""`.
  public init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  /// The binding state itself, reached as `$name`, so that `\.$name` names a bindable field.
  ///
  /// ```swift
  /// BindingAction<State>.set(\.$name, "Blob")
  /// ```
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

extension BindingState: Equatable where Value: Equatable {
  /// Compares the wrapped values.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.wrappedValue == rhs.wrappedValue
  }
}

extension BindingState: Hashable where Value: Hashable {
  /// Hashes the wrapped value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

extension BindingState: Sendable where Value: Sendable {}

extension BindingState: Encodable where Value: Encodable {
  /// Encodes the wrapped value alone, so a state's JSON shows `"name": "Blob"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension BindingState: Decodable where Value: Decodable {
  /// Decodes the wrapped value, as ``encode(to:)`` writes it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: try container.decode(Value.self))
  }
}

extension BindingState: CustomStringConvertible {
  /// The wrapped value's description: `Blob` for a wrapped `"Blob"`.
  public var description: String {
    String(describing: wrappedValue)
  }
}

extension BindingState: CustomDebugStringConvertible {
  /// The wrapped value's debug description: `"Blob"` for a wrapped `"Blob"`.
  public var debugDescription: String {
    String(reflecting: wrappedValue)
  }
}

extension BindingState: CustomReflectable {
  /// The wrapped value's mirror, so that `dump` and `Mirror` see through the wrapper.
  public var customMirror: Mirror {
    Mirror(reflecting: wrappedValue)
  }
}

extension BindingState: CustomDumpRepresentable {
  package var customDumpValue: Any { wrappedValue }
}
