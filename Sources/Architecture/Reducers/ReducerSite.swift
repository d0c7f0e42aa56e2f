#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
@_spi(Reflection) import Swift

/// Where a composition operator was built: the file and line `tca-replay blame` names.
///
/// Operators capture it with `#fileID` and `#line` default arguments, so call sites written for
/// TCA stay unchanged. Recording only stores it; nothing reads it unless a host blames a step.
// unchecked: the pointer is to `#fileID`'s static text, immutable for the life of the process
public struct ReducerSite: @unchecked Sendable {
  // Two words: the static text of `#fileID` (immutable, so sharing it is safe), and the line
  // with the text's length.
  @usableFromInline let start: UnsafeRawPointer
  @usableFromInline let lineAndCount: UInt

  @inlinable
  init(fileID: StaticString, line: UInt) {
    if fileID.hasPointerRepresentation {
      start = UnsafeRawPointer(fileID.utf8Start)
      lineAndCount = line << 32 | UInt(fileID.utf8CodeUnitCount)
    } else {
      start = UnsafeRawPointer(Self.unknown.utf8Start)
      lineAndCount = line << 32 | UInt(Self.unknown.utf8CodeUnitCount)
    }
  }

  @usableFromInline static let unknown: StaticString = "?"

  /// The line; 0 for a site that names none (an erased reducer).
  @inlinable var line: UInt { lineAndCount >> 32 }

  /// `TodosFeature.swift:88`: the file's name without its module, and the line.
  package var text: String {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return "\(name):\(line)"
  }

  /// The file as `#fileID` writes it: `Todos/TodosFeature.swift`.
  package var file: String {
    let count = Int(lineAndCount & 0xFFFF_FFFF)
    return String(
      decoding: UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count),
      as: UTF8.self)
  }
  /// The line.
  package var lineNumber: Int { Int(line) }
}

/// A composition boundary while a step is blamed: what the operator is, where it was built and
/// where its child's state lies inside the state it was given.
@usableFromInline
package struct BlameFrame {
  /// `Reduce`, `Scope`, `forEach`, …
  package let kind: StaticString
  package let site: ReducerSite
  /// Where the child's state lies in the parent's, as the recorder encodes it.
  package let segment: BlameSegment
  /// Whether the frame's own code writes state (a closure `Reduce`, `BindingReducer`, an
  /// operator's dismissal), so that the effects it returns are its own.
  package let isLeaf: Bool

  @usableFromInline
  package init(kind: StaticString, site: ReducerSite, segment: BlameSegment, isLeaf: Bool) {
    self.kind = kind
    self.site = site
    self.segment = segment
    self.isLeaf = isLeaf
  }
}

/// Where a child's state lies in its parent's.
@usableFromInline
package enum BlameSegment {
  /// The same state: `CombineReducers`, `onChange`, a closure.
  case same
  /// A property, through a key path (an optional's wrapped value encodes as the value).
  case property(AnyKeyPath, offset: Int?, root: Any.Type)
  /// A property holding a collection, then the element at an index; `entry` for a stack, whose
  /// elements encode inside `{"id", "element"}`.
  case element(AnyKeyPath, offset: Int?, root: Any.Type, index: Int, inStack: Bool)
  /// The payload of the case an enum state is in.
  case enumCase(type: Any.Type, tag: UInt32?)

  /// The key path's name as Swift writes it, without the root type: `\.todos`.
  package var detail: String {
    switch self {
    case .same: return ""
    case .property(let keyPath, _, _), .element(let keyPath, _, _, _, _):
      let name = StableNames.name(of: keyPath)
      guard let dot = name.firstIndex(of: ".") else { return name }
      return "\\" + name[dot...]
    case .enumCase(let type, let tag):
      return "." + (tag.map { StableNames.caseName(type: type, tag: $0) } ?? "?")
    }
  }

  /// The JSON object keys and array indices this segment adds to a path; `nil` when a key path
  /// goes through a computed property that names no stored one.
  package var components: [String]? {
    switch self {
    case .same:
      return []
    case .property(let keyPath, let offset, let root):
      return Self.properties(keyPath, offset: offset, root: root)
    case .element(let keyPath, let offset, let root, let index, let inStack):
      guard let names = Self.properties(keyPath, offset: offset, root: root) else { return nil }
      return names + ["\(index)"] + (inStack ? ["element"] : [])
    case .enumCase(let type, let tag):
      guard let tag, let name = EnumMetadata(type)?.caseName(tag: tag) else { return nil }
      return [name, "_0"]
    }
  }

  /// The stored properties a key path goes through, as the recorder names them.
  private static func properties(_ keyPath: AnyKeyPath, offset: Int?, root: Any.Type) -> [String]? {
    guard let offset else {
      // `\State.$destination`: a property wrapper's projection names its storage `_destination`,
      // which encodes under `destination`.
      let name = StableNames.name(of: keyPath)
      guard let dollar = name.lastIndex(of: "$") else { return nil }
      let field = name[name.index(after: dollar)...]
      return field.contains(".") || field.contains("<") ? nil : [String(field)]
    }
    var names: [String] = []
    var type = root
    var remaining = offset
    let value = Swift.type(of: keyPath).valueType
    while !(type == value && remaining == 0) {
      var next: (String, Int, Any.Type)?
      _ = _forEachField(of: type, options: []) { name, fieldOffset, fieldType, _ in
        let size = _openExistential(fieldType, do: sizeOf)
        if fieldOffset <= remaining, remaining < fieldOffset + max(size, 1)
          || (fieldType == value && fieldOffset == remaining)
        {
          next = (String(cString: name), fieldOffset, fieldType)
          return false
        }
        return true
      }
      guard let (name, fieldOffset, fieldType) = next else { return names.isEmpty ? nil : names }
      names.append(name.hasPrefix("_") ? String(name.dropFirst()) : name)
      remaining -= fieldOffset
      type = fieldType
      if remaining == 0, fieldType == value { break }
      if names.count > 64 { return nil }
    }
    return names
  }
}

private func sizeOf<T>(_: T.Type) -> Int { MemoryLayout<T>.size }

/// What blames a step: told of every composition boundary as the step's reducers run.
///
/// Set only by a replay host asked to blame; recording and replaying never set it, and each
/// operator pays one load and a branch for the check.
@usableFromInline
package protocol BlameListener: AnyObject {
  /// Runs `body` on `state` as the child of `frame`, noting what it changes and returns.
  func run<State, Action>(
    _ frame: BlameFrame, _ state: inout State, _ body: (inout State) -> Effect<Action>
  ) -> Effect<Action>
}

/// The listeners of the steps being blamed, if any, each on the thread it listens on.
@usableFromInline
package enum Blame {
  // Written only under `lock`; the unlocked read in `run` only tests for nil (any listener at
  // all), and the calling thread's listener is then looked up under the lock, so other threads
  // reducing (tests in parallel, each blaming its own step) pass by or find their own.
  @usableFromInline nonisolated(unsafe) package static var listener: (any BlameListener)?
  nonisolated(unsafe) private static var listeners: [UInt: any BlameListener] = [:]
  private static let lock = Lock()

  private static var thread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

  /// Sets `listener` for the calling thread's reducers while `body` runs.
  package static func listening<R>(
    _ listener: any BlameListener, _ body: () throws -> R
  ) rethrows -> R {
    let thread = thread
    lock.withLock {
      listeners[thread] = listener
      self.listener = listener
    }
    defer {
      lock.withLock {
        listeners[thread] = nil
        self.listener = listeners.values.first
      }
    }
    return try body()
  }

  /// The listener, if one listens on this thread.
  @usableFromInline
  static func current() -> (any BlameListener)? {
    let thread = thread
    return lock.withLock { listeners[thread] }
  }

  /// Runs `body` inside `frame` when a step is blamed on this thread, else just runs it.
  @inlinable
  package static func run<State, Action>(
    _ frame: @autoclosure () -> BlameFrame, _ state: inout State,
    _ body: (inout State) -> Effect<Action>
  ) -> Effect<Action> {
    guard listener != nil, let listener = current() else { return body(&state) }
    return listener.run(frame(), &state, body)
  }
}

extension BlameSegment {
  /// The case `root` is in, when it is an enum.
  @usableFromInline
  package static func caseOf<Root>(_ root: Root) -> BlameSegment {
    .enumCase(type: Root.self, tag: EnumMetadata(Root.self)?.tag(of: root))
  }

  /// A stored property, found by its offset when the key path names one.
  @usableFromInline
  package static func property<Root, Value>(_ keyPath: WritableKeyPath<Root, Value>) -> Self {
    .property(keyPath, offset: MemoryLayout<Root>.offset(of: keyPath), root: Root.self)
  }

  /// The element at `index` of the collection at `keyPath`.
  @usableFromInline
  package static func element<Root, Value>(
    _ keyPath: WritableKeyPath<Root, Value>, index: Int, inStack: Bool = false
  ) -> Self {
    .element(
      keyPath, offset: MemoryLayout<Root>.offset(of: keyPath), root: Root.self, index: index,
      inStack: inStack)
  }
}
