import TraceJSON

/// Follows the hidden values that steps changed in place (``StateChange/redactedChanges(in:)``)
/// through the patches after them, operation by operation, to their paths in the state the walk
/// ends at: an element inserted or removed before one moves it, and a value replaced or removed
/// takes those inside it along. For `diff`, which says them at their paths in its second state.
///
/// ```swift
/// var walk = HiddenChangeWalk(state: before)
/// try walk.forwards(through: step.patch) { try trace.state(afterStep: step.index) }
/// walk.changed   // paths in the state after the step
/// ```
package struct HiddenChangeWalk {
  /// The state the walk is at.
  package private(set) var state: JSONValue
  /// The paths, in ``state``, of the hidden values changed in place so far, in the order found.
  package private(set) var changed: [JSONPointer] = []
  /// The paths, in ``state``, of the values put there or changed in their JSON since the walk
  /// began: a diff shows those itself, and the hidden values in them with them.
  package private(set) var shown: [JSONPointer] = []

  /// ``changed`` less those inside a value in ``shown``.
  package var changedInPlace: [JSONPointer] {
    changed.filter { path in !shown.contains { $0.holds(path) } }
  }

  /// A walk from `state`, with no change found yet.
  package init(state: JSONValue) {
    self.state = state
  }

  /// Starts again from `state`, after steps whose patches are not known (steps the recorder
  /// lost): what was followed so far cannot be placed in it.
  package mutating func restart(at state: JSONValue) {
    self.state = state
    changed = []
    shown = []
  }

  /// Walks one step forwards: `patch` is the step's, and applies to ``state``. `after` gives
  /// the state after the step when an operation does not apply, which then ends the following.
  package mutating func forwards(through patch: JSONPatch, after: () throws -> JSONValue)
    rethrows
  {
    var tested: [JSONPointer: JSONValue] = [:]
    for operation in patch.operations {
      if case .test(let path, let value) = operation {
        tested[path] = value
      } else if StateChange.isRedactedChange(operation, tested: tested),
        !changed.contains(operation.path)
      {
        changed.append(operation.path)
      }
      guard take(operation) else { return restart(at: try after()) }
    }
  }

  /// Walks one step backwards: ``state`` is the state after the step whose patch is `patch`.
  /// `before` gives the state before the step when the patch cannot be undone here.
  package mutating func backwards(through patch: JSONPatch, before: () throws -> JSONValue)
    rethrows
  {
    for path in StateChange.redactedChanges(in: patch) where !changed.contains(path) {
      changed.append(path)
    }
    guard let inverse = try? patch.inverted() else { return restart(at: try before()) }
    for operation in inverse.operations {
      guard take(operation) else { return restart(at: try before()) }
    }
  }

  /// Moves the followed paths through `operation`, then applies it; `false` when it does not
  /// apply.
  private mutating func take(_ operation: JSONPatch.Operation) -> Bool {
    // A hidden value's change in place, or its undoing, writes what is there: nothing moves.
    if case .replace(let at, let value) = operation, at.resolve(in: state) == value { return true }
    changed = changed.compactMap { follow($0, through: operation) }
    shown = shown.compactMap { follow($0, through: operation) }
    switch operation {
    case .add(let at, _), .copy(_, let at), .splice(let at, _, _, _):
      shown.append(at)
    case .replace(let at, _):
      shown.append(at)
    default:
      break
    }
    do {
      try JSONPatch([operation]).apply(to: &state)
    } catch {
      return false
    }
    return true
  }

  /// Where `path` is after `operation`, applied to ``state``; `nil` when it took the value away.
  private func follow(_ path: JSONPointer, through operation: JSONPatch.Operation) -> JSONPointer? {
    switch operation {
    case .test:
      return path
    case .replace(let at, _), .splice(let at, _, _, _):
      return at.holds(path) ? nil : path
    case .add(let at, _), .copy(_, let at):
      return inserting(at, path)
    case .remove(let at):
      return removing(at, path)
    case .move(let from, let at):
      // Moved along: `at` names its place once `from` is gone.
      if from.holds(path) {
        return JSONPointer(tokens: at.tokens + path.tokens.dropFirst(from.tokens.count))
      }
      return removing(from, path).flatMap { inserting(at, $0) }
    }
  }

  /// `path` after a value is put at `at`: into an array, the elements from there on move up;
  /// into an object, a member put there takes what was in it.
  private func inserting(_ at: JSONPointer, _ path: JSONPointer) -> JSONPointer? {
    guard let (level, index) = arrayPlace(at) else { return at.holds(path) ? nil : path }
    return shifted(path, under: at, level: level, from: index, by: 1)
  }

  /// `path` after the value at `at` is removed: the elements after it in an array move down.
  private func removing(_ at: JSONPointer, _ path: JSONPointer) -> JSONPointer? {
    if at.holds(path) { return nil }
    guard let (level, index) = arrayPlace(at) else { return path }
    return shifted(path, under: at, level: level, from: index + 1, by: -1)
  }

  /// The level and index of `at` when it names an element of an array in ``state``.
  private func arrayPlace(_ at: JSONPointer) -> (level: Int, index: Int)? {
    guard let last = at.lastToken, let index = JSONPointer.arrayIndex(last),
      let parent = at.parent, case .array = parent.resolve(in: state)
    else { return nil }
    return (at.tokens.count - 1, index)
  }

  /// `path` with its index at `level` moved by `offset` when it is in the array that holds the
  /// element `at` names, at index `first` or after.
  private func shifted(
    _ path: JSONPointer, under at: JSONPointer, level: Int, from first: Int, by offset: Int
  ) -> JSONPointer {
    guard path.tokens.count > level, path.tokens[..<level] == at.tokens[..<level],
      let position = JSONPointer.arrayIndex(path.tokens[level]), position >= first
    else { return path }
    var tokens = path.tokens
    tokens[level] = String(position + offset)
    return JSONPointer(tokens: tokens)
  }
}

extension JSONPointer {
  /// Whether this pointer is `other` or one of its ancestors.
  fileprivate func holds(_ other: JSONPointer) -> Bool {
    tokens.count <= other.tokens.count && other.tokens.starts(with: tokens)
  }
}
