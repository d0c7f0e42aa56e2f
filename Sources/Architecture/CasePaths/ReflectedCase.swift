import Synchronization

/// The extract half of a case path built from an embed function alone (`/Action.child`).
///
/// An embed function names its case only implicitly, so the case's tag is learned from a payload:
/// embedding any `Value` and reading the result's tag gives the tag of this path's case. After
/// that, extracting from a root of another case is a tag comparison, and from a root of this case
/// a copy of the payload straight out of the enum's storage. Until then, a root whose payload type
/// can never be a `Value` is rejected from facts cached per case (see `CaseFacts`).
///
/// The payload is taken through `Mirror` instead (slower, but always right) when the case is
/// `indirect`, when the enum customizes its mirror, or when the declared payload type differs from
/// `Value` (an embed closure that converts its argument, say).
///
/// The hot path is inlinable so that it is specialized for the client's enum, where `/Action.child`
/// is written; learning the case is not.
///
/// The embed function must be a case's embed function, or at least always produce the same case.
@usableFromInline
final class ReflectedCase<Root, Value>: Sendable {
  @usableFromInline let embed: @Sendable (Value) -> Root
  @usableFromInline let facts: CaseFacts<Root, Value>
  @usableFromInline let metadata: EnumMetadata?
  /// `0` until the case is learned; then bit 63, bit 62 if payloads can be copied out of storage,
  /// and the case's tag in the low 32 bits.
  @usableFromInline let state = Atomic<UInt64>(0)

  @usableFromInline
  init(embed: @escaping @Sendable (Value) -> Root) {
    self.embed = embed
    self.facts = CaseFacts.shared()
    self.metadata = self.facts.metadata
  }

  /// Returns the root's payload if the root is this path's case.
  @inlinable
  func extract(from root: Root) -> Value? {
    guard let metadata else { return nil }
    let tag = metadata.tag(of: root)
    var state = self.state.load(ordering: .acquiring)
    if state == 0 {
      state = self.learn(from: root, tag: tag, metadata: metadata)
      if state == 0 { return nil }
    }
    guard UInt32(truncatingIfNeeded: state) == tag else { return nil }
    if state & (1 << 62) != 0 {
      return metadata.projectPayload(of: root, as: Value.self)
    }
    return Self.mirrorPayload(of: root)
  }

  /// Learns this path's case tag from `root`'s payload, and records it in `state`.
  ///
  /// Any payload that is a `Value` teaches the tag: embedding it gives a root of this path's case.
  /// Returns `0` when `root`'s payload is not a `Value`: then `root` is not this path's case, and
  /// there is nothing to learn yet.
  @inlinable
  func learn(from root: Root, tag: UInt32, metadata: EnumMetadata) -> UInt64 {
    let payload: Value?
    switch self.facts.match(tag: tag, of: root) {
    case .projectable:
      payload = metadata.projectPayload(of: root, as: Value.self)
    case .mirror, .unknown:
      payload = Self.mirrorPayload(of: root)
    case .impossible:
      payload = nil
    }
    guard let payload else { return 0 }
    let embedded = self.embed(payload)
    let caseTag = metadata.tag(of: embedded)
    var state = 1 << 63 | UInt64(caseTag)
    if self.facts.match(tag: caseTag, of: embedded) == .projectable {
      state |= 1 << 62
    }
    self.state.store(state, ordering: .releasing)
    return state
  }

  /// The root's payload through `Mirror`, cast to `Value`; `()` for a case without a payload.
  @usableFromInline
  static func mirrorPayload(of root: Root) -> Value? {
    guard let child = Mirror(reflecting: root).children.first else { return () as? Value }
    if let value = child.value as? Value { return value }
    // `case named(id: Int)` stores a one-element tuple `(id: Int)`, which does not cast to `Int`.
    let payload = Mirror(reflecting: child.value)
    guard payload.displayStyle == .tuple, payload.children.count == 1 else { return nil }
    return payload.children.first?.value as? Value
  }
}
