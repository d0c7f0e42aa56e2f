@_spi(Reflection) import Swift
import Synchronization

/// The `@BindingState` fields of a state type, found by walking its stored properties, and the
/// names that key paths such as `\.$name` were found to write to.
///
/// A key path to a projected value (`\State.$name`) is a computed key path: on Linux it has no
/// name and no offset. Its name is learned by probing (see ``name(of:in:)``) and cached here, so
/// that a binding action can be encoded as `{"keyPath": "$name", …}`. A name is turned back into
/// a key path to the stored field (`\State._name`), which writes the same storage.
enum BindableFields {
  /// One `@BindingState` field reachable from a root through stored properties.
  // unchecked: a key path is immutable, but AnyKeyPath is not marked Sendable
  struct Field: @unchecked Sendable {
    /// The field as a Swift key path expression after `\.`: `$name`, or `child.$name`.
    let name: String
    /// The key path from the root to the stored `BindingState`, such as `\State.child._name`.
    let keyPath: AnyKeyPath
    /// The field's type, `BindingState<Value>`.
    let type: Any.Type
  }

  /// How deep the walk follows nested structures.
  private static let maximumDepth = 8

  /// Key paths are immutable objects, safe to share; `AnyKeyPath` is not marked `Sendable`.
  // unchecked: key paths, immutable but not marked Sendable; the tables sit in a Mutex
  private struct Tables: @unchecked Sendable {
    var fields: [ObjectIdentifier: [Field]] = [:]
    var names: [AnyKeyPath: String] = [:]
  }

  private static let tables = Mutex(Tables())

  /// The name learned for `keyPath`, if a probe or a decoder has learned it.
  static func knownName(of keyPath: AnyKeyPath) -> String? {
    tables.withLock { $0.names[keyPath] }
  }

  /// Remembers that `keyPath` writes to the field called `name`.
  static func remember(_ name: String, for keyPath: AnyKeyPath) {
    tables.withLock { $0.names[keyPath] = name }
  }

  /// The name of the `@BindingState` field that `keyPath` writes to, learned from `root`.
  ///
  /// A copy of `root` gets a marker written through `keyPath`; the stored field of the same type
  /// that holds the marker is the one the key path writes to. No real state holds a marker, so
  /// one flag suffices. The answer is cached.
  static func name<Root, Value>(
    of keyPath: WritableKeyPath<Root, BindingState<Value>>, in root: Root
  ) -> String? {
    if let known = knownName(of: keyPath) { return known }
    var probe = root
    probe[keyPath: keyPath].isProbeMarked = true
    for field in fields(of: Root.self) where field.type == BindingState<Value>.self {
      guard
        let state = storedValue(named: field.name, in: probe) as? BindingState<Value>,
        state.isProbeMarked
      else { continue }
      remember(field.name, for: keyPath)
      return field.name
    }
    return nil
  }

  /// The stored value a field name (`$name`, `child.$name`) reaches in `root`, read through
  /// `Mirror` rather than the field's key path: reading through a key path composed from the
  /// standard library's field key paths sometimes trapped in the key path's scratch buffer.
  private static func storedValue(named name: String, in root: Any) -> Any? {
    var value = root
    for component in name.split(separator: ".") {
      let label = component.hasPrefix("$") ? "_" + component.dropFirst() : String(component)
      guard let child = Mirror(reflecting: value).children.first(where: { $0.label == label })
      else { return nil }
      value = child.value
    }
    return value
  }

  /// The field called `name` (`$name`, `child.$name`) of `Root`, if there is one.
  static func field<Root>(named name: String, in _: Root.Type) -> Field? {
    fields(of: Root.self).first { $0.name == name }
  }

  /// Every `@BindingState` field of `Root`, its own and its nested structures', in order.
  static func fields<Root>(of _: Root.Type) -> [Field] {
    let key = ObjectIdentifier(Root.self)
    if let known = tables.withLock({ $0.fields[key] }) { return known }
    let found = walk(Root.self, prefix: "", depth: 0).map { name, path, type in
      Field(name: name, keyPath: path, type: type)
    }
    tables.withLock { $0.fields[key] = found }
    return found
  }

  /// The `BindingState` fields under `type`, with key paths rooted at `type`.
  private static func walk<T>(
    _ type: T.Type, prefix: String, depth: Int
  ) -> [(String, PartialKeyPath<T>, Any.Type)] {
    var stored: [(name: String, type: Any.Type, kind: _MetadataKind)] = []
    _ = _forEachField(of: type) { name, _, fieldType, kind in
      stored.append((String(cString: name), fieldType, kind))
      return true
    }
    var paths: [PartialKeyPath<T>] = []
    _ = _forEachFieldWithKeyPath(of: type) { _, path in
      paths.append(path)
      return true
    }
    guard paths.count == stored.count else { return [] }
    var found: [(String, PartialKeyPath<T>, Any.Type)] = []
    for (field, path) in zip(stored, paths) {
      if field.type is any AnyBindingState.Type {
        found.append((prefix + projectedName(field.name), path, field.type))
      } else if field.kind == .struct, depth < maximumDepth, isUserType(field.type) {
        let nested = nestedFields(field.type, prefix: prefix + field.name + ".", depth: depth + 1)
        for (name, tail, type) in nested {
          guard let full = path.appending(path: tail) else { continue }
          found.append((name, full, type))
        }
      }
    }
    return found
  }

  /// ``walk(_:prefix:depth:)`` of a type known only at run time.
  private static func nestedFields(
    _ type: Any.Type, prefix: String, depth: Int
  ) -> [(String, AnyKeyPath, Any.Type)] {
    func open<T>(_ type: T.Type) -> [(String, AnyKeyPath, Any.Type)] {
      walk(type, prefix: prefix, depth: depth).map { ($0, $1 as AnyKeyPath, $2) }
    }
    return _openExistential(type, do: open)
  }

  /// `$name` for the storage `_name` of `@BindingState var name`; other names unchanged.
  private static func projectedName(_ stored: String) -> String {
    stored.hasPrefix("_") ? "$" + stored.dropFirst() : stored
  }

  /// Whether a structure is worth walking into: the standard library's, Foundation's and this
  /// module's own structures hold no `@BindingState` a key path can reach through stored fields.
  private static func isUserType(_ type: Any.Type) -> Bool {
    let name = String(reflecting: type)
    let module = name.prefix { $0 != "." }
    return !["Swift", "Foundation", "FoundationEssentials", "Architecture", "_Concurrency"]
      .contains(String(module))
  }
}

/// `BindingState` with its value type erased, for finding bindable fields by their type.
protocol AnyBindingState {}

extension BindingState: AnyBindingState {}
