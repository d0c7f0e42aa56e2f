import Synchronization

/// What case paths from `Root` to `Value` have learned by reflection, shared by all of them.
///
/// `Scope(state:action:)` may be rebuilt on every action (a reducer's `body` is), so a new case
/// path must not pay for `Mirror` again. One instance per `(Root, Value)` pair keeps the enum's
/// metadata and, per case tag, how a payload of that case relates to `Value` (read once with
/// `Mirror` from the first root of that case).
@usableFromInline
final class CaseFacts<Root, Value>: Sendable {
  /// How the payloads of one case relate to `Value`.
  @usableFromInline
  enum PayloadMatch: Sendable {
    /// The payload is a `Value` and can be copied out of the enum's storage.
    case projectable
    /// The payload is a `Value`, but must be read through `Mirror` (an `indirect` case).
    case mirror
    /// No payload of this case can ever be cast to `Value`.
    case impossible
    /// Only casting the payload (through `Mirror`) tells.
    case unknown
  }

  /// The enum's metadata, or `nil` if `Root` is not an enum.
  @usableFromInline let metadata: EnumMetadata?
  @usableFromInline let matches = Mutex<[UInt32: PayloadMatch]>([:])

  private init() {
    self.metadata = EnumMetadata(Root.self)
  }

  /// The facts for case paths from `Root` to `Value`.
  @inlinable
  static func shared() -> CaseFacts {
    let facts = caseFacts(
      root: ObjectIdentifier(Root.self), value: ObjectIdentifier(Value.self), orMake: make
    )
    // Registered under a key naming `Root` and `Value`.
    return unsafeDowncast(facts, to: CaseFacts.self)
  }

  @usableFromInline
  static func make() -> AnyObject {
    CaseFacts()
  }

  /// How payloads of the case with this tag relate to `Value`; `root` is of that case.
  @inlinable
  func match(tag: UInt32, of root: Root) -> PayloadMatch {
    if let known = matches.withLock({ $0[tag] }) { return known }
    let match = self.computeMatch(tag: tag, of: root)
    matches.withLock { $0[tag] = match }
    return match
  }

  @usableFromInline
  func computeMatch(tag: UInt32, of root: Root) -> PayloadMatch {
    // A custom mirror says nothing reliable about the stored payload.
    guard let metadata, !(Root.self is any CustomReflectable.Type) else { return .unknown }
    let value = metadataPointer(of: Value.self)
    guard let payload = Mirror(reflecting: root).children.first else {
      // No payload: only `()` can be extracted.
      if value == metadataPointer(of: Void.self) { return .unknown }
      return TypeMetadata(value).kind == MetadataKind.tuple ? .unknown : .impossible
    }
    let payloadType = storedType(of: payload.value)
    if isLayoutCompatible(payload: payloadType, value: value) {
      let inline =
        metadata.isIndirect(tag: tag) == false
        && MemoryLayout<Value>.size <= MemoryLayout<Root>.size
      return inline ? .projectable : .mirror
    }
    return castIsImpossible(from: payloadType, to: value) ? .impossible : .unknown
  }
}

/// The `CaseFacts` registered for `(root, value)`, made and registered by `make` the first time.
@usableFromInline
func caseFacts(
  root: ObjectIdentifier,
  value: ObjectIdentifier,
  orMake make: () -> AnyObject
) -> AnyObject {
  CaseFactsRegistry.shared.facts(for: .init(root: root, value: value), orMake: make)
}

/// The `CaseFacts` of every `(Root, Value)` pair seen so far.
private final class CaseFactsRegistry: Sendable {
  static let shared = CaseFactsRegistry()

  struct Key: Hashable {
    var root: ObjectIdentifier
    var value: ObjectIdentifier
  }

  /// Unchecked-sendable boxes: each `CaseFacts` is itself `Sendable`.
  private let facts = Mutex<[Key: UncheckedFacts]>([:])

  // unchecked: each object is a `CaseFacts`, itself Sendable, erased to AnyObject
  private struct UncheckedFacts: @unchecked Sendable {
    let object: AnyObject
  }

  func facts(for key: Key, orMake make: () -> AnyObject) -> AnyObject {
    if let known = facts.withLock({ $0[key] }) { return known.object }
    let made = UncheckedFacts(object: make())
    return facts.withLock {
      if let known = $0[key] { return known.object }
      $0[key] = made
      return made.object
    }
  }
}
