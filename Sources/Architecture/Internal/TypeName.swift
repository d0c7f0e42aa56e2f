/// The name a dump prints for a type: its qualified name without module prefixes.
///
/// `String(reflecting:)` names a type with its module and, for types declared inside a function
/// or as `fileprivate`, with anonymous contexts; none of that helps a reader:
///
/// | `String(reflecting:)` | dumped as |
/// | --- | --- |
/// | `CounterTests.CounterFeature.State` | `CounterFeature.State` |
/// | `Swift.Dictionary<Swift.Int, Foundation.UUID>` | `Dictionary<Int, UUID>` |
/// | `Tests.(unknown context at $10f0).User` | `User` |
/// | `Tests.(User in _A1B2C3)` | `User` |
package func dumpTypeName(_ type: Any.Type) -> String {
  var name = String(reflecting: type)
  name = removingAnonymousContexts(name)
  name = removingPrivateDiscriminators(name)
  return removingModulePrefixes(name)
}

/// The name a dump prefixes an enum case with: ``dumpTypeName(_:)`` without generic arguments,
/// as in `Result.success(42)`.
package func dumpEnumTypeName(_ type: Any.Type) -> String {
  var result = ""
  var genericDepth = 0
  for character in dumpTypeName(type) {
    switch character {
    case "<": genericDepth += 1
    case ">": genericDepth -= 1
    default: if genericDepth == 0 { result.append(character) }
    }
  }
  return result
}

/// Removes every `(unknown context at $…).` that reflection inserts for local and private scopes.
private func removingAnonymousContexts(_ name: String) -> String {
  let marker = "(unknown context at "
  guard name.contains(marker) else { return name }
  var result = ""
  var rest = Substring(name)
  while let start = rest.firstRange(of: marker) {
    result += rest[..<start.lowerBound]
    guard let close = rest[start.upperBound...].firstIndex(of: ")") else {
      rest = rest[start.lowerBound...]
      break
    }
    var end = rest.index(after: close)
    if end < rest.endIndex, rest[end] == "." { end = rest.index(after: end) }
    rest = rest[end...]
  }
  return result + rest
}

/// Replaces each `(Name in _DISCRIMINATOR)` that names a private type with `Name`.
private func removingPrivateDiscriminators(_ name: String) -> String {
  guard name.contains(" in _") else { return name }
  var result = ""
  var rest = Substring(name)
  while let open = rest.firstIndex(of: "(") {
    result += rest[..<open]
    let afterOpen = rest[rest.index(after: open)...]
    guard
      let close = afterOpen.firstIndex(of: ")"),
      let separator = afterOpen[..<close].firstRange(of: " in _"),
      afterOpen[..<separator.lowerBound].allSatisfy(isIdentifierCharacter)
    else {
      result.append("(")
      rest = afterOpen
      continue
    }
    result += afterOpen[..<separator.lowerBound]
    rest = afterOpen[afterOpen.index(after: close)...]
  }
  return result + rest
}

/// Drops the first component, the module, of every dotted path that starts a type reference.
///
/// A path starting with a dot (`.Index` in `Array<Int>.Index`) names a member of the generic
/// type before it and is kept whole.
private func removingModulePrefixes(_ name: String) -> String {
  var result = ""
  var token = ""
  func flush() {
    if !token.hasPrefix("."), let dot = token.firstIndex(of: ".") {
      result += token[token.index(after: dot)...]
    } else {
      result += token
    }
    token = ""
  }
  for character in name {
    if isIdentifierCharacter(character) || character == "." {
      token.append(character)
    } else {
      flush()
      result.append(character)
    }
  }
  flush()
  return result
}

private func isIdentifierCharacter(_ character: Character) -> Bool {
  character.isLetter || character.isNumber || character == "_" || character == "$"
}
