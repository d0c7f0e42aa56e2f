/// A path into a state that can follow an element of an array by its id, not its position.
///
/// The text form is an RFC 6901 JSON Pointer in which a token may be followed by selectors
/// `[id=…]`, each picking the element of an array whose `"id"` member equals the value:
///
/// ```swift
/// let path = StatePath("/todos[id=3]/isComplete")!
/// path.resolve(in: state)       // that todo's isComplete, wherever the todo is now
/// path.pointer(in: state)       // JSONPointer("/todos/1/isComplete"), if it is second now
/// StatePath("/todos/1/title")!  // a plain pointer: by position, as RFC 6901 says
/// ```
///
/// The value after `id=` is either a JSON string (`"a]b"`) or bare text up to the `]`.
/// Bare text matches a string id equal to it, and also a number id written the same way, so
/// `[id=3]` finds `{"id":3}` and `{"id":"3"}`. Elements of a `StackState`, encoded as
/// `{"id":n,"element":…}`, are found the same way.
///
/// A `[key=…]` selector picks a dictionary's value by its key, in either encoding `Codable`
/// gives a dictionary: an object (`{"13":2}` for an `[Int: Int]`) or, for keys that are not
/// strings or integers, a flat array of keys and values (`[13,2,15,1]`):
///
/// ```swift
/// StatePath("/cart/quantities[key=13]")!.resolve(in: state)  // 2, whichever encoding
/// ```
public struct StatePath: Hashable, Sendable {
  /// One step of the path, outermost first.
  public enum Component: Hashable, Sendable {
    /// An object member by name, or an array element by position: a JSON Pointer token.
    case token(String)
    /// The element of an array whose `"id"` member matches.
    case element(id: ElementID)
    /// The value of a dictionary whose key matches: an object's member, or the value after a
    /// matching key in a flat array of keys and values.
    case key(ElementID)
  }

  /// The id an `[id=…]` selector looks for.
  public enum ElementID: Hashable, Sendable {
    /// Written as JSON: matches an id equal to this value.
    case json(JSONValue)
    /// Written bare: matches a string id equal to it, or a number id written the same way.
    case text(String)

    /// Whether an element with this id is the one selected. Bare text with an ellipsis, as
    /// printers shorten ids (`3F2A…9B1C`), matches a string id with those ends.
    public func matches(_ id: JSONValue) -> Bool {
      switch (self, id) {
      case (.json(let value), _): return value == id
      case (.text(let text), .string(let string)):
        return text == string || Self.elidedText(text, matches: string)
      case (.text(let text), .integer), (.text(let text), .unsignedInteger),
        (.text(let text), .double):
        return id.jsonString == text
      default: return false
      }
    }
  }

  /// The components, outermost first; empty for the whole state.
  public var components: [Component]

  /// A path from components.
  public init(components: [Component] = []) {
    self.components = components
  }

  /// The path that follows exactly `pointer`, by position.
  public init(_ pointer: JSONPointer) {
    components = pointer.tokens.map(Component.token)
  }

  /// Parses the text form; `nil` unless it is a JSON Pointer whose tokens may end in
  /// well-formed `[id=…]` selectors.
  public init?(_ text: String) {
    if text.isEmpty {
      components = []
      return
    }
    guard text.first == "/" else { return nil }
    var components: [Component] = []
    var rest = Substring(text)
    while let slash = rest.first, slash == "/" {
      rest = rest.dropFirst()
      let end = rest.firstIndex { $0 == "/" || $0 == "[" } ?? rest.endIndex
      let rawToken = rest[..<end]
      rest = rest[end...]
      // `[` starts a selector only after a token or another selector; a token may be empty.
      guard let token = JSONPointer("/" + rawToken)?.tokens.first else { return nil }
      let hasSelector = rest.first == "["
      if !(hasSelector && token.isEmpty) { components.append(.token(token)) }
      while rest.first == "[" {
        guard let (component, after) = Self.parseSelector(rest) else { return nil }
        components.append(component)
        rest = after
      }
      guard rest.isEmpty || rest.first == "/" else { return nil }
    }
    self.components = components
  }

  /// The whole state.
  public static let root = StatePath()

  /// Whether this is the path to the whole state.
  public var isRoot: Bool { components.isEmpty }

  /// Whether the path names any element by id, or any dictionary value by key.
  public var followsIdentity: Bool {
    components.contains { if case .token = $0 { false } else { true } }
  }

  /// The value at this path in `document`, or `nil` if there is none.
  public func resolve(in document: JSONValue) -> JSONValue? {
    // The walk `pointer(in:)` makes, keeping the value rather than the tokens: `log --changed`
    // resolves the path after every step.
    var current = document
    for component in components {
      switch (component, current) {
      case (.token(let token), .object(let object)):
        guard let member = object[token] else { return nil }
        current = member
      case (.token(let token), .array(let elements)):
        guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
        current = elements[index]
      case (.element(let id), .array(let elements)):
        guard let index = elements.firstIndex(where: { Self.id(of: $0).map(id.matches) ?? false })
        else { return nil }
        current = elements[index]
      case (.key(let key), _):
        guard let (_, value) = Self.entry(key, in: current) else { return nil }
        current = value
      default:
        return nil
      }
    }
    return current
  }

  /// The token and value of the dictionary entry whose key matches `key`, in either encoding.
  private static func entry(_ key: ElementID, in dictionary: JSONValue) -> (String, JSONValue)? {
    switch dictionary {
    case .object(let object):
      let name: String
      switch key {
      case .text(let text): name = text
      case .json(.string(let text)): name = text
      case .json(let value): name = value.jsonString
      }
      return object[name].map { (name, $0) }
    case .array(let flat) where flat.count % 2 == 0:
      for index in stride(from: 0, to: flat.count, by: 2) where key.matches(flat[index]) {
        return (String(index + 1), flat[index + 1])
      }
      return nil
    default:
      return nil
    }
  }

  /// The plain pointer this path names in `document` now, or `nil` if there is none.
  public func pointer(in document: JSONValue) -> JSONPointer? {
    var tokens: [String] = []
    var current = document
    for component in components {
      switch (component, current) {
      case (.token(let token), .object(let object)):
        guard let member = object[token] else { return nil }
        tokens.append(token)
        current = member
      case (.token(let token), .array(let elements)):
        guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
        tokens.append(token)
        current = elements[index]
      case (.element(let id), .array(let elements)):
        guard let index = elements.firstIndex(where: { Self.id(of: $0).map(id.matches) ?? false })
        else { return nil }
        tokens.append(String(index))
        current = elements[index]
      case (.key(let key), _):
        guard let (token, value) = Self.entry(key, in: current) else { return nil }
        tokens.append(token)
        current = value
      default:
        return nil
      }
    }
    return JSONPointer(tokens: tokens)
  }

  /// The path that follows `pointer` in `document` by identity: each array index whose element
  /// has an `"id"` becomes an `[id=…]` selector. Indices it cannot follow stay positions.
  public init(identifying pointer: JSONPointer, in document: JSONValue) {
    var components: [Component] = []
    var current: JSONValue? = document
    for token in pointer.tokens {
      if case .array(let elements)? = current, let index = JSONPointer.arrayIndex(token),
        index < elements.count, let id = Self.id(of: elements[index]),
        elements.firstIndex(where: { Self.id(of: $0) == id }) == index
      {
        components.append(.element(id: Self.selector(for: id)))
        current = elements[index]
        continue
      }
      components.append(.token(token))
      current = current.flatMap { JSONPointer(tokens: [token]).resolve(in: $0) }
    }
    self.components = components
  }

  /// The id of an array element: its `"id"` member, if it is a string or a number.
  package static func id(of element: JSONValue) -> JSONValue? {
    guard case .object(let object) = element, let id = object["id"] else { return nil }
    switch id {
    case .string, .integer, .unsignedInteger, .double: return id
    default: return nil
    }
  }

  /// The shortest selector that matches exactly `id` (an element's id, or a dictionary's key).
  public static func selector(for id: JSONValue) -> ElementID {
    switch id {
    case .string: break
    case .integer, .unsignedInteger, .double: return .text(id.jsonString)
    default: return .json(id)
    }
    if case .string(let text) = id, !text.isEmpty,
      !text.contains(where: { "]/\"[~".contains($0) || $0.isWhitespace }),
      (try? JSONValue(parsing: text)) == nil
    {
      return .text(text)
    }
    return .json(id)
  }

  /// Reads `[id=…]` or `[key=…]` at the start of `text`; returns the component and what
  /// follows the `]`.
  private static func parseSelector(_ text: Substring) -> (Component, Substring)? {
    let isKey = text.hasPrefix("[key=")
    guard isKey || text.hasPrefix("[id=") else { return nil }
    guard let (id, after) = parseSelectorValue(text.dropFirst(isKey ? 5 : 4)) else { return nil }
    return (isKey ? .key(id) : .element(id: id), after)
  }

  /// Reads the value of a selector and its `]`: a JSON string, an object or array written as
  /// JSON (a key of a struct type), or bare text.
  private static func parseSelectorValue(_ value: Substring) -> (ElementID, Substring)? {
    if value.first == "\"" {
      // A JSON string: find its closing quote, skipping escapes.
      var index = value.index(after: value.startIndex)
      while index < value.endIndex, value[index] != "\"" {
        if value[index] == "\\" { index = value.index(after: index) }
        guard index < value.endIndex else { return nil }
        index = value.index(after: index)
      }
      guard index < value.endIndex else { return nil }
      let literalEnd = value.index(after: index)
      guard let string = try? JSONValue(parsing: String(value[..<literalEnd])),
        value[literalEnd...].first == "]"
      else { return nil }
      return (.json(string), value[value.index(after: literalEnd)...])
    }
    if value.first == "{" || value.first == "[" {
      // The shortest run up to a `]` that parses as JSON: a key's own brackets come first.
      var searchFrom = value.startIndex
      while let close = value[searchFrom...].firstIndex(of: "]") {
        if let json = try? JSONValue(parsing: String(value[..<close])), json.isContainer {
          return (.json(json), value[value.index(after: close)...])
        }
        searchFrom = value.index(after: close)
      }
      return nil
    }
    guard let close = value.firstIndex(of: "]"), close > value.startIndex else { return nil }
    let raw = String(value[..<close])
    let after = value[value.index(after: close)...]
    return (.text(raw), after)
  }
}

extension StatePath.ElementID {
  /// Whether `string` has the ends around the one `…` in `pattern`: `3F2A…9B1C`, `"Buy mi…"`.
  public static func elidedText(_ pattern: String, matches string: String) -> Bool {
    guard let ellipsis = pattern.firstIndex(of: "…") else { return false }
    let prefix = pattern[..<ellipsis]
    let suffix = pattern[pattern.index(after: ellipsis)...]
    return string.count >= prefix.count + suffix.count && string.hasPrefix(prefix)
      && string.hasSuffix(suffix)
  }

  /// The selector's value as a path writes it.
  fileprivate var text: String {
    switch self {
    case .text(let raw): raw
    case .json(let value): value.jsonString
    }
  }
}

extension JSONValue {
  fileprivate var isContainer: Bool {
    switch self {
    case .object, .array: true
    default: false
    }
  }
}

extension StatePath: CustomStringConvertible {
  /// The text form: a JSON Pointer with `[id=…]` after the tokens that select by id.
  public var description: String {
    var text = ""
    for component in components {
      switch component {
      case .token(let token):
        text += "/" + JSONPointer.escape(token)
      case .element(let id):
        if text.isEmpty { text = "/" }
        text += "[id=\(id.text)]"
      case .key(let key):
        if text.isEmpty { text = "/" }
        text += "[key=\(key.text)]"
      }
    }
    return text
  }
}
