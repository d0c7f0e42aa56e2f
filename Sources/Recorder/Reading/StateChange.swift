import TraceJSON

/// One change a step made to the state, as a Swift developer reads it: a path that follows
/// dictionary keys (`/cart/quantities[key=13]`) and values in ``SwiftValue`` form.
///
/// A patch says how the JSON changed, and inside a value whose encoding is not its Swift shape
/// (a `Duration`'s two integers, a set's sorted elements, a dictionary's flat array of keys and
/// values) that is noise: such a value is shown whole before and after, and a dictionary
/// entry by entry.
///
/// ```swift
/// let changes = StateChange.changes(step.patch, from: before, to: after, type: stateType,
///                                   schema: schema)
/// // [~ /cart/quantities[key=13]: 1 → 2, ~ /timer: .seconds(1) → .seconds(2)]
/// ```
package struct StateChange: Equatable, Sendable {
  /// What happened at the path.
  package enum Kind: Equatable, Sendable {
    case changed, added, removed
    /// Moved here from another path.
    case moved(from: StatePath)
    /// Copied here from another path.
    case copied(from: StatePath)
    /// A run of a long string replaced, at this byte offset.
    case spliced(offset: Int)
    /// A value the trace's redaction rules hide changed in place: it reads `"<redacted>"`
    /// before and after, and the recorder said that it changed.
    case redacted
  }

  package var kind: Kind
  package var path: StatePath
  /// The value before, when the change had one.
  package var old: SwiftValue?
  /// The value after, when the change has one.
  package var new: SwiftValue?

  package init(kind: Kind, path: StatePath, old: SwiftValue? = nil, new: SwiftValue? = nil) {
    self.kind = kind
    self.path = path
    self.old = old
    self.new = new
  }

  /// The changes `patch` made, taking `old` to `new`: states (or values) of the type `type`.
  package static func changes(
    _ patch: JSONPatch, from old: JSONValue, to new: JSONValue, type: String?,
    schema: TypeSchema
  ) -> [StateChange] {
    var changes: [StateChange] = []
    var tested: [JSONPointer: JSONValue] = [:]
    var shownWhole: Set<JSONPointer> = []
    // Short UUIDs tell apart every UUID of both states, so that a path's value reads back.
    var uuids: Set<String>?
    func show(_ json: JSONValue?, _ type: String?) -> SwiftValue? {
      json.map {
        SwiftValue($0, type: type, schema: schema) {
          if uuids == nil { uuids = SwiftValue.uuids(in: [old, new]) }
          return uuids!
        }
      }
    }
    for operation in patch.operations {
      if case .test(let path, let value) = operation {
        tested[path] = value
        continue
      }
      let pointer = operation.path
      let (walk, whole) = TypeWalk.walk(pointer, root: type, schema: schema)
      if let (at, wholeType) = whole {
        if isRedactedChange(operation, tested: tested), shownWhole.insert(at).inserted {
          changes.append(StateChange(kind: .redacted, path: StatePath(at)))
          continue
        }
        guard shownWhole.insert(at).inserted else { continue }
        let before = at.resolve(in: old)
        let after = at.resolve(in: new)
        if TypeName.shortName(TypeName.unwrappingValue(wholeType)) == "Dictionary",
          let before, let after
        {
          changes += entries(
            at: StatePath(at), from: before, to: after, type: wholeType, schema: schema)
        } else if before != after {
          let kind: Kind = before == nil ? .added : after == nil ? .removed : .changed
          changes.append(
            StateChange(
              kind: kind, path: StatePath(at), old: show(before, wholeType),
              new: show(after, wholeType)))
        }
        continue
      }
      let path = StatePath(pointer)
      let valueType = walk.type
      switch operation {
      case .test:
        break
      case .replace(_, let value):
        if isRedactedChange(operation, tested: tested) {
          tested.removeValue(forKey: pointer)
          changes.append(StateChange(kind: .redacted, path: path))
          continue
        }
        let before = tested.removeValue(forKey: pointer)
        changes.append(
          StateChange(
            kind: .changed, path: path, old: show(before, valueType), new: show(value, valueType)))
      case .add(_, let value):
        changes.append(StateChange(kind: .added, path: path, new: show(value, valueType)))
      case .remove:
        let before = tested.removeValue(forKey: pointer)
        changes.append(StateChange(kind: .removed, path: path, old: show(before, valueType)))
      case .move(let from, _):
        changes.append(StateChange(kind: .moved(from: StatePath(from)), path: path))
      case .copy(let from, _):
        changes.append(StateChange(kind: .copied(from: StatePath(from)), path: path))
      case .splice(_, let offset, let before, let after):
        changes.append(
          StateChange(
            kind: .spliced(offset: offset), path: path,
            old: .atom(JSONValue.string(before).jsonString, .string),
            new: .atom(JSONValue.string(after).jsonString, .string)))
      }
    }
    return changes
  }

  /// Whether `operation` says that a hidden value changed in place: a `replace` of the
  /// placeholder with itself, after a `test` of it. A diff never writes one, as nothing changed
  /// in the JSON; a recorder writes one for a hidden value that changed (TraceFormat.md,
  /// "Redaction").
  package static func isRedactedChange(
    _ operation: JSONPatch.Operation, tested: [JSONPointer: JSONValue]
  ) -> Bool {
    guard case .replace(let path, let value) = operation, value == Redaction.placeholder else {
      return false
    }
    return tested[path] == Redaction.placeholder
  }

  /// The paths `patch` says a hidden value changed in place at (``isRedactedChange(_:tested:)``).
  package static func redactedChanges(in patch: JSONPatch) -> [JSONPointer] {
    var tested: [JSONPointer: JSONValue] = [:]
    var paths: [JSONPointer] = []
    for operation in patch.operations {
      if case .test(let path, let value) = operation {
        tested[path] = value
      } else if isRedactedChange(operation, tested: tested) {
        paths.append(operation.path)
      }
    }
    return paths
  }

  /// Those of `hidden`, paths where a patch changed a hidden value in place, that are at or
  /// under `path`, relative to it (found in `state`, the state after the patch).
  package static func redactedChanges(
    _ hidden: [JSONPointer], under path: StatePath, in state: JSONValue
  ) -> [JSONPointer] {
    guard !hidden.isEmpty, let base = path.pointer(in: state) else { return [] }
    return hidden.compactMap { pointer in
      guard pointer.tokens.starts(with: base.tokens) else { return nil }
      return JSONPointer(tokens: Array(pointer.tokens.dropFirst(base.tokens.count)))
    }
  }

  /// A dictionary's changes entry by entry, each at `[key=…]`.
  private static func entries(
    at path: StatePath, from old: JSONValue, to new: JSONValue, type: String, schema: TypeSchema
  ) -> [StateChange] {
    guard let (keyType, valueType) = TypeName.dictionaryArguments(
      of: TypeName.unwrappingValue(type)),
      let before = SwiftValueScalars.entries(old, keyType: keyType),
      let after = SwiftValueScalars.entries(new, keyType: keyType)
    else {
      return [
        StateChange(
          kind: .changed, path: path, old: SwiftValue(old, type: type, schema: schema),
          new: SwiftValue(new, type: type, schema: schema))
      ]
    }
    func entryPath(_ key: JSONValue) -> StatePath {
      StatePath(components: path.components + [.key(StatePath.selector(for: key))])
    }
    func show(_ json: JSONValue) -> SwiftValue { SwiftValue(json, type: valueType, schema: schema) }
    var changes: [StateChange] = []
    for (key, value) in after {
      switch before.first(where: { $0.key == key })?.value {
      case nil:
        changes.append(StateChange(kind: .added, path: entryPath(key), new: show(value)))
      case let previous? where previous != value:
        changes.append(
          StateChange(kind: .changed, path: entryPath(key), old: show(previous), new: show(value)))
      default:
        break
      }
    }
    for (key, value) in before where !after.contains(where: { $0.key == key }) {
      changes.append(StateChange(kind: .removed, path: entryPath(key), old: show(value)))
    }
    return changes
  }
}
