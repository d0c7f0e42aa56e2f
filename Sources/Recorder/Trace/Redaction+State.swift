import TraceJSON

extension Redaction {
  /// Replaces what `rules` cover in `value`, the part of a state found at `location` (object
  /// keys and array indices, as JSON Pointer tokens), and notes each hidden value in `hidden`.
  ///
  /// One walk hides the outermost place each rule covers, with the value found there, so what
  /// is noted is always a real value, never one holding a placeholder.
  static func apply(
    _ rules: [Redaction], to value: inout JSONValue, at location: [String],
    noting hidden: HiddenValues.Collector? = nil
  ) {
    guard !rules.isEmpty else { return }
    var keys: Set<String> = []
    var paths: [ArraySlice<String>] = []
    for rule in rules {
      switch rule {
      case .key(let name):
        // A key rule also covers a subtree that sits under a member with that name.
        if location.contains(name) { return hide(&value, noting: hidden) }
        keys.insert(name)
      case .path(let path):
        guard let tokens = JSONPointer(path)?.tokens else { continue }
        let shared = min(tokens.count, location.count)
        let matches = zip(tokens.prefix(shared), location.prefix(shared))
          .allSatisfy { $0 == "*" || $0 == $1 }
        guard matches else { continue }
        // This whole value lies under a redacted path.
        if tokens.count <= location.count { return hide(&value, noting: hidden) }
        paths.append(tokens[shared...])
      }
    }
    redact(&value, keys: keys, paths: paths, hidden)
  }

  /// Hides, inside `value`, the members named by `keys` and the places the rest of each path
  /// rule in `paths` reaches; the outermost first, without looking inside what it hides.
  private static func redact(
    _ value: inout JSONValue, keys: Set<String>, paths: [ArraySlice<String>],
    _ hidden: HiddenValues.Collector?
  ) {
    guard !keys.isEmpty || !paths.isEmpty else { return }
    value.modifyObject { object in
      for position in object.indices {
        let key = object[position].key
        let inner = paths.isEmpty ? paths : following(paths, key)
        hidden?.enter(key, isIndex: false)
        if keys.contains(key) || inner.contains(where: \.isEmpty) {
          object.modifyValue(at: position) { hide(&$0, noting: hidden) }
        } else if object[position].value.isContainer {
          object.modifyValue(at: position) { redact(&$0, keys: keys, paths: inner, hidden) }
        }
        hidden?.leave()
      }
    }
    value.modifyArray { elements in
      for index in elements.indices {
        let token = paths.isEmpty && hidden == nil ? "" : String(index)
        let inner = paths.isEmpty ? paths : following(paths, token)
        hidden?.enter(token, isIndex: true)
        if inner.contains(where: \.isEmpty) {
          hide(&elements[index], noting: hidden)
        } else if elements[index].isContainer {
          redact(&elements[index], keys: keys, paths: inner, hidden)
        }
        hidden?.leave()
      }
    }
  }

  /// The rest of each path rule that goes on through `token` (`*` matches any).
  private static func following(
    _ paths: [ArraySlice<String>], _ token: String
  ) -> [ArraySlice<String>] {
    paths.compactMap { rest in
      guard let first = rest.first, first == "*" || first == token else { return nil }
      return rest.dropFirst()
    }
  }
}

extension JSONValue {
  /// Whether this is an object or an array.
  fileprivate var isContainer: Bool {
    switch self {
    case .object, .array: true
    default: false
    }
  }
}
