/// A property wrapper for the state of a feature presented from its parent: a sheet, a popover,
/// an alert, or a `Destination` enum of them.
///
/// ```swift
/// struct InventoryFeature: Reducer {
///   struct State: Equatable {
///     @PresentationState var destination: Destination.State?
///     var items: IdentifiedArrayOf<Item> = []
///   }
///   enum Action {
///     case addButtonTapped
///     case destination(PresentationAction<Destination.Action>)
///   }
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in … }
///       .ifLet(\.$destination, action: /Action.destination) {
///         Destination()
///       }
///   }
/// }
/// ```
///
/// `nil` means nothing is presented. The projected value, `$destination`, is the wrapper itself:
/// `ifLet` takes a key path to it. The state is stored indirectly, so a feature may present
/// another instance of itself. It is `Equatable`, `Hashable` and `Codable` when its state is, and
/// encodes as the optional it wraps.
@propertyWrapper
public struct PresentationState<State> {
  private var storage: Storage

  /// Creates the wrapper around an optional presented state.
  public init(wrappedValue: State?) {
    self.storage = Storage(wrappedValue)
  }

  /// The presented state, or `nil` when nothing is presented.
  public var wrappedValue: State? {
    get { storage.value }
    set {
      if isKnownUniquelyReferenced(&storage) {
        storage.value = newValue
      } else {
        storage = Storage(newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.value) }
      yield &storage.value
    }
  }

  /// The wrapper itself, so `\.$destination` is a key path to it.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
    _modify { yield &self }
  }

  /// The presented state in the case `path` names, or `nil` when another case, or nothing, is
  /// presented. Setting it replaces the presented state only while it is in that case.
  ///
  /// ```swift
  /// state.$destination[case: /Destination.State.edit]?.title = "Groceries"
  /// ```
  public subscript<Case>(case path: AnyCasePath<State, Case>) -> Case? {
    get { wrappedValue.flatMap(path.extract(from:)) }
    set {
      guard let newValue, wrappedValue.flatMap(path.extract(from:)) != nil else { return }
      wrappedValue = path.embed(newValue)
    }
  }

  // unchecked: copy-on-write box: `value` is written only after a uniqueness check
  private final class Storage: @unchecked Sendable {
    var value: State?
    init(_ value: State?) { self.value = value }
  }
}

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

// unchecked: copy-on-write: the storage is written only after a uniqueness check
extension PresentationState: @unchecked Sendable where State: Sendable {}

extension PresentationState: Encodable where State: Encodable {
  /// Encodes the wrapped optional: `null`, or the presented state.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension PresentationState: Decodable where State: Decodable {
  /// Decodes the wrapped optional: `null`, or a presented state.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(State.self))
  }
}

extension PresentationState: CustomDumpRepresentable {
  package var customDumpValue: Any { wrappedValue as Any }
}

extension PresentationState: CustomReflectable {
  /// Reflects the wrapped optional, so mirrors and dumps show the presented state.
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue as Any) }
}
