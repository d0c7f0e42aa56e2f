/// What tells one presentation from the next: the enum case of the presented state, and the
/// `id` of its payload (or of the state itself) when that is `Identifiable`.
///
/// When it changes, a new feature is presented even though the state was never `nil` in
/// between, and the old feature's effects are cancelled.
struct PresentationID: Hashable, Sendable {
  private let tag: UInt32?
  private let id: AnyHashableSendable?

  init<State>(_ state: State) {
    if let metadata = EnumMetadata(State.self) {
      tag = metadata.tag(of: state)
      let payload = Mirror(reflecting: state).children.first?.value
      id = payload.flatMap(Self.identity(of:))
    } else {
      tag = nil
      id = Self.identity(of: state)
    }
  }

  private static func identity(of value: Any) -> AnyHashableSendable? {
    guard let identifiable = value as? any Identifiable else { return nil }
    return identity(of: identifiable)
  }

  private static func identity<Value: Identifiable>(of value: Value) -> AnyHashableSendable? {
    // Ids are values (UUIDs, integers, strings): safe to compare from any task.
    AnyHashableSendable(UncheckedID(id: value.id))
  }

  private struct UncheckedID<ID: Hashable>: Hashable, @unchecked Sendable {
    let id: ID
  }
}

/// Identifies the effects of one presentation of a child feature at a key path.
///
/// Key paths without captured values are immutable, so sharing one across tasks is safe.
struct PresentationCancelID: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
  let presentation: PresentationID
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
