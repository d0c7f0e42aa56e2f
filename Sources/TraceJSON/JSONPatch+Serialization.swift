extension JSONPatch {
  /// Appends the patch's compact JSON text to `out`: the bytes of ``json`` serialized, written
  /// without building that intermediate value.
  ///
  /// Every step record carries a patch; building its operation objects and pointer strings only
  /// to write them out cost more than the rest of the step's line.
  package func serialize(into out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    // A `replace` or `remove` follows the `test` of the same path: its path's text is copied
    // from the test's rather than written again.
    var previous: (path: JSONPointer, text: Range<Int>)?
    for position in operations.indices {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      let operation = operations[position]
      let path = operation.path
      if let previous, previous.path == path {
        operation.serialize(into: &out, pathText: previous.text)
      } else {
        let text = operation.serialize(into: &out, pathText: nil)
        previous = (path, text)
      }
    }
    out.append(UInt8(ascii: "]"))
  }
}

extension JSONPatch.Operation {
  /// Appends the operation object's compact JSON text: members in the order of ``json``.
  package func serialize(into out: inout [UInt8]) {
    serialize(into: &out, pathText: nil)
  }

  /// Appends the operation's text; its path's text is copied from `pathText`, a range of `out`,
  /// when given. Returns where the path's text is in `out`.
  @discardableResult
  func serialize(into out: inout [UInt8], pathText: Range<Int>?) -> Range<Int> {
    // The names as literals: `appendString` scanned each for characters to escape.
    switch self {
    case .add: appendLiteral(#"{"op":"add""#, to: &out)
    case .remove: appendLiteral(#"{"op":"remove""#, to: &out)
    case .replace: appendLiteral(#"{"op":"replace""#, to: &out)
    case .move: appendLiteral(#"{"op":"move""#, to: &out)
    case .copy: appendLiteral(#"{"op":"copy""#, to: &out)
    case .test: appendLiteral(#"{"op":"test""#, to: &out)
    case .splice: appendLiteral(#"{"op":"splice""#, to: &out)
    }
    if let from {
      appendLiteral(#","from":"#, to: &out)
      from.serialize(into: &out)
    }
    appendLiteral(#","path":"#, to: &out)
    let pathStart = out.count
    if let pathText {
      // Byte by byte: a slice of `out` appended to `out` would copy the whole buffer.
      for position in pathText { out.append(out[position]) }
    } else {
      path.serialize(into: &out)
    }
    let pathEnd = out.count
    if case .splice(_, let offset, let old, let new) = self {
      appendLiteral(#","offset":"#, to: &out)
      out.append(contentsOf: String(offset).utf8)
      appendLiteral(#","old":"#, to: &out)
      JSONValue.string(old).serialize(into: &out)
      appendLiteral(#","value":"#, to: &out)
      JSONValue.string(new).serialize(into: &out)
    }
    if let value {
      appendLiteral(#","value":"#, to: &out)
      value.serialize(into: &out)
    }
    out.append(UInt8(ascii: "}"))
    return pathStart..<pathEnd
  }
}

extension JSONPointer {
  /// Appends the pointer's text form as a JSON string: the bytes of
  /// `JSONValue.string(description)` serialized.
  package func serialize(into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for var token in tokens {
      out.append(UInt8(ascii: "/"))
      // Most tokens have nothing to escape as a pointer: one pass over their bytes, without
      // the escaped copy.
      let written = token.withUTF8 { bytes -> Bool in
        for byte in bytes where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
          return false
        }
        JSONTextWriter.appendEscaped(bytes, to: &out)
        return true
      }
      guard !written else { continue }
      var escaped = Self.escape(token)
      escaped.withUTF8 { JSONTextWriter.appendEscaped($0, to: &out) }
    }
    out.append(UInt8(ascii: "\""))
  }
}

private func appendLiteral(_ text: StaticString, to out: inout [UInt8]) {
  text.withUTF8Buffer { out.append(contentsOf: $0) }
}
