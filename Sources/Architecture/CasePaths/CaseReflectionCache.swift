/// Facts about enum cases learned by reflection, shared by every case path in the process.
///
/// `Scope(state:action:)` may be rebuilt on every action (a reducer's `body` is), so each new case
/// path would otherwise pay for `Mirror` again. Two things are cached, both keyed by types only:
///
/// - the declared payload type of each `(enum type, case tag)`, read once with `Mirror`;
/// - one sample payload per `(enum type, value type)`: embedding it with a new path's embed
///   function tells that path its case tag at once, without waiting for an action of its case.
final class CaseReflectionCache: @unchecked Sendable {
  static let shared = CaseReflectionCache()

  private struct CaseKey: Hashable {
    var root: ObjectIdentifier
    var tag: UInt32
  }

  private struct SampleKey: Hashable {
    var root: ObjectIdentifier
    var value: ObjectIdentifier
  }

  private let lock = Lock()
  /// `nil` values record cases without a payload.
  private var payloadTypes: [CaseKey: UnsafeRawPointer?] = [:]
  private var samples: [SampleKey: Any] = [:]

  /// The declared payload type of `root`'s case (whose tag is `tag`), or `nil` if it has none.
  func payloadType<Root>(of root: Root, tag: UInt32) -> UnsafeRawPointer? {
    let key = CaseKey(root: ObjectIdentifier(Root.self), tag: tag)
    if let known = lock.withLock({ payloadTypes[key] }) { return known }
    let type = Mirror(reflecting: root).children.first.map { storedType(of: $0.value) }
    lock.withLock { payloadTypes[key] = type }
    return type
  }

  /// A payload seen earlier for a case path from `Root` to `Value`, if any.
  func sample<Root, Value>(_: Root.Type, _: Value.Type) -> Value? {
    let key = SampleKey(root: ObjectIdentifier(Root.self), value: ObjectIdentifier(Value.self))
    return lock.withLock { samples[key] } as? Value
  }

  /// Keeps `value` as the sample for case paths from `Root` to `Value` (the first one wins).
  func storeSample<Root, Value>(_ value: Value, root _: Root.Type) {
    let key = SampleKey(root: ObjectIdentifier(Root.self), value: ObjectIdentifier(Value.self))
    lock.withLock {
      if samples[key] == nil { samples[key] = value }
    }
  }
}
