/// What a ``BindingAction`` holds besides its key path: the value, typed operations on it, and
/// what is known about the field's name. Shared by the copies of one action.
///
/// The base class erases the value's type, so that `BindingAction<Root>` has one generic
/// parameter as in TCA; ``TypedBindingActionStorage`` does the typed work.
// unchecked: key paths and values need not be Sendable, as in TCA; the one var is under `lock`
class BindingActionStorage<Root>: @unchecked Sendable {
  /// The field's name (`$name`) when the action was decoded, and so holds a key path to the
  /// stored field (`\State._name`) rather than the projection the user's code writes.
  let decodedName: String?

  /// A state the action was applied to, kept by ``BindingReducer`` for decoded actions, so that
  /// a key path the process has not probed yet (`\.$name` in `case .binding(\.$name)`) can be
  /// named by probing it. Written once, read from any thread.
  private var snapshotStorage: Root?
  private let lock = Lock()

  init(decodedName: String?) {
    self.decodedName = decodedName
  }

  /// The state kept by ``keep(snapshot:)``, if any.
  var snapshot: Root? {
    lock.withLock { snapshotStorage }
  }

  /// Keeps `root` for later probes, unless a state is kept already.
  func keep(snapshot root: Root) {
    lock.withLock {
      if snapshotStorage == nil { snapshotStorage = root }
    }
  }

  /// The new value, type-erased.
  var value: Any { fatalError("abstract") }

  /// The type of the field written, `BindingState<Value>`.
  var fieldType: Any.Type { fatalError("abstract") }

  /// Writes the new value into `root`.
  func apply(to root: inout Root) { fatalError("abstract") }

  /// The name of the field the action's key path writes to, found by probing `root`.
  func probeName(in root: Root) -> String? { fatalError("abstract") }

  /// Whether the other action sets a field of the same type to an equal value.
  func hasValue(equalTo other: BindingActionStorage<Root>) -> Bool { fatalError("abstract") }

  /// The same change, made from a root that holds this action's root at `keyPath`.
  func pullback<NewRoot>(_ keyPath: WritableKeyPath<NewRoot, Root>) -> BindingAction<NewRoot> {
    fatalError("abstract")
  }
}

/// ``BindingActionStorage`` for a field of type `BindingState<Value>`.
// unchecked: adds lets set in init: a key path and a value that need not be Sendable, as in TCA
final class TypedBindingActionStorage<Root, Value: Equatable>: BindingActionStorage<Root>,
  @unchecked Sendable
{
  let keyPath: WritableKeyPath<Root, BindingState<Value>>
  let newValue: Value

  init(keyPath: WritableKeyPath<Root, BindingState<Value>>, value: Value, decodedName: String?) {
    self.keyPath = keyPath
    self.newValue = value
    super.init(decodedName: decodedName)
  }

  override var value: Any { newValue }

  override var fieldType: Any.Type { BindingState<Value>.self }

  override func apply(to root: inout Root) {
    root[keyPath: keyPath].wrappedValue = newValue
  }

  override func probeName(in root: Root) -> String? {
    BindableFields.name(of: keyPath, in: root)
  }

  override func hasValue(equalTo other: BindingActionStorage<Root>) -> Bool {
    guard let other = other as? TypedBindingActionStorage<Root, Value> else { return false }
    return newValue == other.newValue
  }

  override func pullback<NewRoot>(
    _ keyPath: WritableKeyPath<NewRoot, Root>
  ) -> BindingAction<NewRoot> {
    BindingAction<NewRoot>(keyPath: keyPath.appending(path: self.keyPath), value: newValue)
  }
}
