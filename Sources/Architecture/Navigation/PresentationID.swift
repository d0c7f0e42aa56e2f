/// What tells one presentation from the next: the enum case of the presented state, and the
/// `id` of its payload (or of the state itself) when that is `Identifiable`.
///
/// When it changes, a new feature is presented even though the state was never `nil` in
/// between, and the old feature's effects are cancelled.
struct PresentationID: Hashable, Sendable, CustomDebugStringConvertible {
  private let tag: UInt32?
  private let id: AnyHashableSendable?
  /// The presented state's type, for naming the case. Equal tags come from equal types: the
  /// ids of one key path are compared.
  private let type: Any.Type

  init<State>(_ state: State) {
    if let metadata = EnumMetadata(State.self) {
      let tag = metadata.tag(of: state)
      self.tag = tag
      let payload = Mirror(reflecting: state).children.first?.value
      id = payload.flatMap(Self.identity(of:))
    } else {
      tag = nil
      id = Self.identity(of: state)
    }
    type = State.self
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.tag == rhs.tag && lhs.id == rhs.id
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(tag)
    hasher.combine(id)
  }

  /// `.edit(id: 3)`, `.alert`, `(id: 3)` or empty: alerts' and dialogs' random ids are left
  /// out, as they differ in every process.
  var debugDescription: String {
    let shown = id.flatMap { $0.base is any EphemeralIdentity ? nil : $0 }
    let identity = shown.map { "(id: \($0.reflection))" } ?? ""
    let name = tag.map { "." + StableNames.caseName(type: type, tag: $0) } ?? ""
    return name + identity
  }

  private static func identity(of value: Any) -> AnyHashableSendable? {
    guard let identifiable = value as? any Identifiable else { return nil }
    return identity(of: identifiable)
  }

  private static func identity<Value: Identifiable>(of value: Value) -> AnyHashableSendable? {
    // Ids are values (UUIDs, integers, strings): safe to compare from any task.
    if value is any _EphemeralState { return AnyHashableSendable(EphemeralID(id: value.id)) }
    return AnyHashableSendable(UncheckedID(id: value.id))
  }

  // unchecked: ids need only be Hashable, as in TCA; hashed and compared, never mutated
  private struct UncheckedID<ID: Hashable>: Hashable, @unchecked Sendable,
    CustomDebugStringConvertible
  {
    let id: ID
    var debugDescription: String { String(reflecting: id) }
  }

  /// The identity of an alert or a dialog: random, so never written to a trace.
  // unchecked: ids need only be Hashable, as in TCA; hashed and compared, never mutated
  private struct EphemeralID<ID: Hashable>: Hashable, @unchecked Sendable, EphemeralIdentity {
    let id: ID
  }
}

private protocol EphemeralIdentity {}

/// Identifies the effects of one presentation of a child feature at a key path.
///
/// Key paths without captured values are immutable, so sharing one across tasks is safe.
// unchecked: a key path is immutable, but AnyKeyPath is not marked Sendable
struct PresentationCancelID: Hashable, @unchecked Sendable, CustomDebugStringConvertible {
  let keyPath: AnyKeyPath
  let presentation: PresentationID

  /// `\State.$destination.edit(id: 3)`.
  var debugDescription: String {
    StableNames.name(of: keyPath) + presentation.debugDescription
  }
}

/// A state that is presented only until the user picks one of its actions: alerts and
/// confirmation dialogs. After such an action, `ifLet` clears the presentation itself.
public protocol _EphemeralState {}

/// Whether `state`, or the payload of `state`'s enum case, is ephemeral.
func isEphemeral<State>(_ state: State) -> Bool {
  if state is any _EphemeralState { return true }
  guard EnumMetadata(State.self) != nil else { return false }
  return Mirror(reflecting: state).children.first?.value is any _EphemeralState
}

extension AlertState: _EphemeralState {}
extension ConfirmationDialogState: _EphemeralState {}
