import Synchronization

/// The extract half of a case path built from an embed function alone (`/Action.child`).
///
/// An embed function names its case only implicitly, so the case's tag is learned from a payload:
/// embedding any `Value` and reading the result's tag gives the tag of this path's case. After
/// that, extracting from a root of another case is a tag comparison (a few nanoseconds), and from
/// a root of this case a copy of the payload straight out of the enum's storage.
///
/// The payload is taken through `Mirror` instead (slower, but always right) when the case is
/// `indirect`, when the enum customizes its mirror, or when the declared payload type differs from
/// `Value` (an embed closure that converts its argument, say).
///
/// The embed function must be a case's embed function, or at least always produce the same case.
final class ReflectedCase<Root, Value>: Sendable {
  private let embed: @Sendable (Value) -> Root
  private let metadata: EnumMetadata?
  /// Whether payloads may be copied straight out of storage, case types permitting.
  private let mayProject: Bool
  /// `0` until the case is learned; then `learnedBit`, maybe `projectableBit`, and the tag.
  private let state = Atomic<UInt64>(0)

  private static var learnedBit: UInt64 { 1 << 63 }
  private static var projectableBit: UInt64 { 1 << 62 }

  init(embed: @escaping @Sendable (Value) -> Root) {
    self.embed = embed
    self.metadata = EnumMetadata(Root.self)
    self.mayProject =
      !(Root.self is any CustomReflectable.Type)
      && MemoryLayout<Value>.size <= MemoryLayout<Root>.size
  }

  /// Returns the root's payload if the root is this path's case.
  func extract(from root: Root) -> Value? {
    guard let metadata else { return nil }
    let tag = metadata.tag(of: root)
    var state = self.state.load(ordering: .acquiring)
    if state == 0 {
      guard let learned = self.learn(from: root, tag: tag, metadata: metadata) else { return nil }
      state = learned
      self.state.store(learned, ordering: .releasing)
    }
    guard UInt32(truncatingIfNeeded: state) == tag else { return nil }
    if state & Self.projectableBit != 0 {
      return metadata.projectPayload(of: root, as: Value.self)
    }
    return Self.mirrorPayload(of: root)
  }

  /// Learns this path's case tag, from a cached sample payload or from `root`'s payload.
  ///
  /// Returns `nil` when no sample is cached and `root`'s payload is not a `Value`: then `root` is
  /// not this path's case, and there is nothing to learn yet.
  private func learn(from root: Root, tag: UInt32, metadata: EnumMetadata) -> UInt64? {
    let cache = CaseReflectionCache.shared
    let sample: Value
    if let cached = cache.sample(Root.self, Value.self) {
      sample = cached
    } else {
      let payload: Value?
      if self.isProjectable(tag: tag, in: root, metadata: metadata) {
        payload = metadata.projectPayload(of: root, as: Value.self)
      } else {
        payload = Self.mirrorPayload(of: root)
      }
      guard let payload else { return nil }
      cache.storeSample(payload, root: Root.self)
      sample = payload
    }
    let embedded = self.embed(sample)
    let caseTag = metadata.tag(of: embedded)
    var state = Self.learnedBit | UInt64(caseTag)
    if self.isProjectable(tag: caseTag, in: embedded, metadata: metadata) {
      state |= Self.projectableBit
    }
    return state
  }

  /// Whether payloads of the case with this tag can be copied out of storage as a `Value`.
  private func isProjectable(tag: UInt32, in root: Root, metadata: EnumMetadata) -> Bool {
    guard self.mayProject, metadata.isIndirect(tag: tag) == false else { return false }
    guard
      let payloadType = CaseReflectionCache.shared.payloadType(of: root, tag: tag)
    else { return false }
    return isLayoutCompatible(payload: payloadType, value: metadataPointer(of: Value.self))
  }

  /// The root's payload through `Mirror`, cast to `Value`; `()` for a case without a payload.
  private static func mirrorPayload(of root: Root) -> Value? {
    guard let child = Mirror(reflecting: root).children.first else { return () as? Value }
    if let value = child.value as? Value { return value }
    // `case named(id: Int)` stores a one-element tuple `(id: Int)`, which does not cast to `Int`.
    let payload = Mirror(reflecting: child.value)
    guard payload.displayStyle == .tuple, payload.children.count == 1 else { return nil }
    return payload.children.first?.value as? Value
  }
}
