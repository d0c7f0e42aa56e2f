@_spi(Reflection) import Swift

/// Names for the parts of the ids the runtime makes (key paths, enum cases) that are the same in
/// every process: a trace records ids as text, and a replay in another process compares them.
///
/// `String(describing:)` of a key path through a computed property, such as a property
/// wrapper's projection `\State.$destination`, prints the getter's address instead of a name.
enum StableNames {
  private static let lock = Lock()
  // Guarded by `lock`. Key paths without captured values are immutable.
  nonisolated(unsafe) private static var keyPaths: [AnyKeyPath: String] = [:]
  /// `keyPath` as Swift writes it (`\State.detail`, `\State.$destination`), with no address.
  static func name(of keyPath: AnyKeyPath) -> String {
    if let known = lock.withLock({ keyPaths[keyPath] }) { return known }
    let name = resolve(keyPath)
    lock.withLock { keyPaths[keyPath] = name }
    return name
  }

  /// The name of the case of enum `type` whose tag is `tag`: `case 2` without reflection records.
  static func caseName(type: Any.Type, tag: UInt32) -> String {
    EnumMetadata(type)?.caseName(tag: tag) ?? "case \(tag)"
  }

  private static func resolve(_ keyPath: AnyKeyPath) -> String {
    let described = String(describing: keyPath)
    guard described.contains("<computed ") else { return described }
    // A projection through a property wrapper: the one stored `_name` of the key path's value
    // type is what `\Root.$name` projects.
    let root = type(of: keyPath).rootType
    let value = type(of: keyPath).valueType
    let stripped = withoutAddresses(described)
    if stripped == "\\\(root).<computed \(value)>" {
      var candidates: [String] = []
      _ = _forEachField(of: root, options: []) { name, _, type, _ in
        let field = String(cString: name)
        if type == value, field.hasPrefix("_") { candidates.append(field) }
        return true
      }
      if candidates.count == 1 { return "\\\(root).$\(candidates[0].dropFirst())" }
    }
    return stripped
  }

  /// `Module.(unknown context at $55c2…).Feature.CancelID.timer`, the name of a private
  /// type, as `Module.Feature.CancelID.timer`.
  static func withoutUnknownContexts(_ text: String) -> String {
    guard text.contains("(unknown context at $") else { return text }
    var result = ""
    var rest = Substring(text)
    while let start = rest.range(of: "(unknown context at $") {
      result += rest[..<start.lowerBound]
      rest = rest[start.upperBound...].drop { $0.isHexDigit }
      if rest.hasPrefix(")") { rest = rest.dropFirst() }
      if rest.hasPrefix("."), result.hasSuffix(".") { rest = rest.dropFirst() }
    }
    return result + rest
  }

  /// `\Root.<computed 0x00005… (Value)>` as `\Root.<computed Value>`.
  private static func withoutAddresses(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let start = rest.range(of: "<computed 0x") {
      result += rest[..<start.lowerBound]
      result += "<computed "
      rest = rest[start.upperBound...].drop { $0.isHexDigit }
      // ` (Value)>`: the value's type may hold parentheses of its own.
      guard rest.hasPrefix(" (") else { continue }
      rest = rest.dropFirst(2)
      var depth = 1
      var index = rest.startIndex
      while index < rest.endIndex {
        if rest[index] == "(" { depth += 1 }
        if rest[index] == ")" { depth -= 1 }
        if depth == 0 { break }
        index = rest.index(after: index)
      }
      result += rest[..<index]
      rest = rest[index...].dropFirst()
    }
    return result + rest
  }
}
