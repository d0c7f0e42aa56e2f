/// Reading the type names a trace records, as `String(reflecting:)` writes them
/// (`Swift.Optional<Todos.Todo>`, `Swift.Dictionary<Swift.String, Swift.Int>`).
///
/// Recording, replay and the test generator all read these names, so they live beside the
/// trace's ``TypeSchema`` rather than in the generator.
package enum TypeName {
  /// `Swift.Optional<T>` as `T`: optionality is expressed by the context.
  static func unwrappingOptional(_ type: String) -> String {
    var type = type
    while type.hasPrefix("Swift.Optional<"), type.hasSuffix(">") {
      type = String(type.dropFirst("Swift.Optional<".count).dropLast())
    }
    return type
  }

  /// The type a value is shown as: `Swift.Optional<T>`, and the wrappers that encode as the
  /// value they wrap (`@BindingState`, `@PresentationState`), as `T`.
  static func unwrappingValue(_ type: String) -> String {
    var type = type
    while true {
      let unwrapped = unwrappingOptional(type)
      // Prefixes, not `isArchitecture`: labels call this per value as they are recorded.
      guard
        unwrapped.hasPrefix("Architecture.BindingState<")
          || unwrapped.hasPrefix("Architecture.PresentationState<"),
        isArchitectureGeneric(unwrapped, named: TypeName.shortName(unwrapped)),
        let wrapped = genericArgument(of: unwrapped)
      else { return unwrapped }
      type = wrapped
    }
  }

  /// The unqualified last component of a type name: `UUID` for `FoundationEssentials.UUID`.
  static func shortName(_ type: String) -> String {
    let base = type.prefix { $0 != "<" }
    return String(base.split(separator: ".").last ?? Substring(base))
  }

  /// A type's name as the test writes it: without its module, as the test imports that.
  package static func displayName(_ type: String) -> String {
    let base = type.prefix { $0 != "<" }
    let components = base.split(separator: ".")
    guard components.count > 1 else { return type }
    return components.dropFirst().joined(separator: ".") + type.dropFirst(base.count)
  }

  /// The module that declares a type: the first component of its full name.
  static func module(of type: String) -> String? {
    let base = type.prefix { $0 != "<" }
    let components = base.split(separator: ".")
    return components.count > 1 ? String(components[0]) : nil
  }

  /// The generic argument of a one-argument generic type name: `X.Y` for `TaskResult<X.Y>`.
  static func genericArgument(of type: String) -> String? {
    guard let open = type.firstIndex(of: "<"), type.hasSuffix(">") else { return nil }
    return String(type[type.index(after: open)..<type.index(before: type.endIndex)])
  }

  /// The key and value types of `Swift.Dictionary<K, V>`.
  static func dictionaryArguments(of type: String) -> (key: String, value: String)? {
    guard shortName(type) == "Dictionary", let arguments = genericArgument(of: type) else {
      return nil
    }
    var depth = 0
    for (offset, character) in arguments.enumerated() {
      switch character {
      case "<": depth += 1
      case ">": depth -= 1
      case "," where depth == 0:
        let index = arguments.index(arguments.startIndex, offsetBy: offset)
        let key = String(arguments[..<index]).trimmingSpaces
        let value = String(arguments[arguments.index(after: index)...]).trimmingSpaces
        return (key, value)
      default: break
      }
    }
    return nil
  }

  /// Whether `type` is `Architecture`'s type of that short name.
  static func isArchitecture(_ type: String, named name: String) -> Bool {
    module(of: type) == "Architecture" && shortName(type) == name
  }

  /// Whether `type` is `Architecture.<name><…>` itself, not a type nested in it
  /// (`Architecture.StackState<E>`, not `Architecture.StackState<E>.Entry`).
  static func isArchitectureGeneric(_ type: String, named name: String) -> Bool {
    guard type.hasPrefix("Architecture." + name + "<") else { return false }
    // The `>` that closes the first `<` must end the name.
    var depth = 0
    for (offset, character) in type.enumerated() {
      if character == "<" { depth += 1 }
      if character == ">" {
        depth -= 1
        if depth == 0 { return offset == type.count - 1 }
      }
    }
    return false
  }

  /// The short names of the standard library's integer types.
  static let integerNames: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
  ]

  static func isInteger(_ type: String) -> Bool {
    integerNames.contains(shortName(type)) && module(of: type) == "Swift"
  }

  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first,
      first == "_" || first.properties.isAlphabetic
    else { return false }
    return name.unicodeScalars.allSatisfy {
      $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
    }
  }

  /// `$name` or `child.$note`: identifiers, the last one projected. Anything else is not
  /// written into Swift source.
  static func isBindingKeyPath(_ keyPath: String) -> Bool {
    let components = keyPath.split(separator: ".", omittingEmptySubsequences: false)
    guard let last = components.last, last.hasPrefix("$") else { return false }
    return components.dropLast().allSatisfy { isIdentifier(String($0)) }
      && isIdentifier(String(last.dropFirst()))
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
