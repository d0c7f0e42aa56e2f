import TraceJSON

/// A rule that hides a value before it is written to a trace.
///
/// ```swift
/// TraceRecorder.Options(redactions: [.key("password"), .path("/session/token")])
/// ```
///
/// Redaction happens on the recorder's thread before anything is encoded to bytes, so a
/// redacted value never reaches the file. The trace's header lists the rules, and a replay
/// treats redacted values as unknown rather than as a divergence.
public enum Redaction: Sendable, Hashable, CustomStringConvertible {
  /// Every object member with this name, at any depth, in states and actions.
  case key(String)
  /// The state value at this JSON Pointer; a `*` token matches any member or element.
  case path(String)

  /// What a redacted value is replaced with.
  package static let placeholder = JSONValue.string("<redacted>")

  /// Replaces `value` with ``placeholder``, unless it is the empty string or `null`: neither
  /// tells a secret, and keeping them shows when a secret is cleared, which a generated test
  /// needs to follow a redacted value through the state.
  /// The value hidden is noted in `hidden`, when given.
  static func hide(_ value: inout JSONValue, noting hidden: HiddenValues.Collector? = nil) {
    switch value {
    case .null: return
    case .string(let text) where text.isEmpty && !hidesEmpty: return
    default:
      hidden?.note(value)
      value = placeholder
    }
  }

  /// Whether ``hide(_:)`` hides the empty string too: for comparing what a reducer computes
  /// from stand-ins, one of which may be empty.
  @TaskLocal static var hidesEmpty = false

  /// The rule in words: `key password` or `path /session/token`.
  public var description: String {
    switch self {
    case .key(let name): "key \(name)"
    case .path(let path): "path \(path)"
    }
  }

  /// Replaces what `rules` cover in `value`; path rules only apply when `isState`. A state's
  /// hidden values are noted in `hidden`, when given (see ``HiddenValues``).
  static func apply(
    _ rules: [Redaction], to value: inout JSONValue, isState: Bool,
    noting hidden: HiddenValues.Collector? = nil
  ) {
    if isState {
      apply(rules, to: &value, at: [], noting: hidden)
    } else {
      guard !rules.isEmpty else { return }
      redactKeyPathPayloads(rules, in: &value)
      redactKeys(rules, in: &value)
    }
  }

  /// Hides the value of every `{"keyPath": …, "value": …}` in an action (a binding's payload,
  /// `{"set":{"keyPath":"$cardNumber","value":…}}`) that the rules hide at the member the key
  /// path names: a key rule naming any of its members, or a path rule that ends with them (or
  /// with a part of them), wherever the feature sits in the app's state.
  private static func redactKeyPathPayloads(_ rules: [Redaction], in value: inout JSONValue) {
    value.modifyObject { object in
      if case .string(let keyPath)? = object["keyPath"], object.contains(key: "value") {
        let members = keyPathMembers(keyPath)
        var payload = object["value"]!
        redact(payload: &payload, at: members, rules)
        object["value"] = payload
      }
      for position in object.indices {
        object.modifyValue(at: position) { redactKeyPathPayloads(rules, in: &$0) }
      }
    }
    value.modifyArray { elements in
      for index in elements.indices { redactKeyPathPayloads(rules, in: &elements[index]) }
    }
  }

  /// The member names a key path written as `child.$name` (or `$name`, `name?`) goes through.
  static func keyPathMembers(_ keyPath: String) -> [String] {
    keyPath.split(separator: ".").map { member in
      var name = Substring(member)
      while name.first == "$" || name.first == "\\" { name = name.dropFirst() }
      while name.last == "?" || name.last == "!" { name = name.dropLast() }
      return String(name)
    }
  }

  /// Redacts `payload`, the value a key path through `members` writes, as the rules hide it.
  private static func redact(payload: inout JSONValue, at members: [String], _ rules: [Redaction]) {
    for rule in rules {
      switch rule {
      case .key(let name):
        if members.contains(name) {
          hide(&payload)
          return
        }
      case .path(let path):
        guard let pointer = JSONPointer(path) else { continue }
        let tokens = pointer.tokens
        // The key path may start anywhere in the rule: the feature's place in the app's state
        // is not in the action. Matching more than needed hides more, never less.
        for start in tokens.indices {
          let shared = min(tokens.count - start, members.count)
          let matches = (0..<shared).allSatisfy {
            tokens[start + $0] == "*" || tokens[start + $0] == members[$0]
          }
          guard matches else { continue }
          if tokens.count - start <= members.count {
            hide(&payload)
            return
          }
          redact(tokens: tokens[(start + members.count)...], in: &payload)
        }
      }
    }
  }

  /// Whether `rules` hide the whole value at `location` (object keys and array indices, as
  /// JSON Pointer tokens): a key rule naming any token, or, in a state, a path rule reaching no
  /// deeper than `location`.
  static func covers(_ rules: [Redaction], location: [String], isState: Bool) -> Bool {
    for rule in rules {
      switch rule {
      case .key(let name):
        if location.contains(name) { return true }
      case .path(let path):
        guard isState, let pointer = JSONPointer(path), pointer.tokens.count <= location.count
        else { continue }
        if zip(pointer.tokens, location).allSatisfy({ $0 == "*" || $0 == $1 }) { return true }
      }
    }
    return false
  }

  private static func redactKeys(_ rules: [Redaction], in value: inout JSONValue) {
    let keys = Set(rules.compactMap { if case .key(let name) = $0 { name } else { nil } })
    if !keys.isEmpty { redact(keys: keys, in: &value) }
  }

  private static func redact(keys: Set<String>, in value: inout JSONValue) {
    value.modifyObject { object in
      for position in object.indices {
        let key = object[position].key
        if keys.contains(key) {
          object.modifyValue(at: position) { hide(&$0) }
        } else {
          object.modifyValue(at: position) { redact(keys: keys, in: &$0) }
        }
      }
    }
    value.modifyArray { elements in
      for index in elements.indices { redact(keys: keys, in: &elements[index]) }
    }
  }

  private static func redact(tokens: ArraySlice<String>, in value: inout JSONValue) {
    guard let token = tokens.first else {
      hide(&value)
      return
    }
    let rest = tokens.dropFirst()
    value.modifyObject { object in
      for position in object.indices where token == "*" || object[position].key == token {
        object.modifyValue(at: position) { redact(tokens: rest, in: &$0) }
      }
    }
    value.modifyArray { elements in
      for index in elements.indices where token == "*" || token == String(index) {
        redact(tokens: rest, in: &elements[index])
      }
    }
  }
}
