extension JSONPatch {
  /// Long strings whose change is smaller than this many UTF-8 bytes of the string are diffed
  /// by ``Operation/splice(path:offset:old:new:)`` when splicing is asked for.
  package static var spliceThreshold: Int { 1024 }

  /// Whether the patch holds a `splice`, the one operation RFC 6902 tools do not know.
  public var hasSplice: Bool {
    operations.contains { if case .splice = $0 { true } else { false } }
  }

  /// The same patch in plain RFC 6902: each `splice` becomes a `test` and `replace` of the
  /// whole string. The strings come from `document`, the state the patch applies to, which is
  /// left as the patch leaves it.
  public func plain(applyingTo document: inout JSONValue) throws(JSONPatchError) -> JSONPatch {
    guard hasSplice else {
      try apply(to: &document)
      return self
    }
    var plain: [Operation] = []
    plain.reserveCapacity(operations.count + 1)
    for operation in operations {
      if case .splice(let path, _, _, _) = operation {
        let before = path.resolve(in: document)
        try JSONPatch([operation]).apply(to: &document)
        if let before { plain.append(.test(path: path, value: before)) }
        plain.append(.replace(path: path, value: path.resolve(in: document) ?? .null))
      } else {
        try JSONPatch([operation]).apply(to: &document)
        plain.append(operation)
      }
    }
    return JSONPatch(plain)
  }
}

extension JSONPatch.Operation {
  /// The splice that turns `old` into `new` at `path`, or `nil` when the strings are short or
  /// differ in most of their bytes. The changed run is cut at Unicode scalar boundaries.
  static func splice(from old: String, to new: String, at path: JSONPointer) -> Self? {
    var old = old
    var new = new
    let oldCount = old.utf8.count
    let newCount = new.utf8.count
    guard max(oldCount, newCount) >= JSONPatch.spliceThreshold else { return nil }
    return old.withUTF8 { oldBytes in
      new.withUTF8 { newBytes in
        let shorter = min(oldCount, newCount)
        let byte = RawBytes.Layout(of: UInt8.self)
        guard let oldStart = oldBytes.baseAddress, let newStart = newBytes.baseAddress else {
          return nil
        }
        // Block by block: a megabyte compared a byte at a time cost about a millisecond.
        var prefix = RawBytes.commonPrefix(
          UnsafeRawPointer(oldStart), UnsafeRawPointer(newStart), count: shorter, byte)
        // Back up to a scalar's first byte: the bytes before `prefix` are the same in both.
        while prefix > 0 && (isContinuation(oldBytes, prefix) || isContinuation(newBytes, prefix)) {
          prefix -= 1
        }
        var suffix = RawBytes.commonSuffix(
          endingAt: UnsafeRawPointer(oldStart + oldCount), UnsafeRawPointer(newStart + newCount),
          count: shorter - prefix, byte)
        while suffix > 0
          && (isContinuation(oldBytes, oldCount - suffix)
            || isContinuation(newBytes, newCount - suffix))
        {
          suffix -= 1
        }
        let removed = oldCount - suffix - prefix
        let inserted = newCount - suffix - prefix
        // Worth it only when most of the string is kept.
        guard removed + inserted < max(oldCount, newCount) / 2 else { return nil }
        let oldText = String(decoding: oldBytes[prefix..<(prefix + removed)], as: UTF8.self)
        let newText = String(decoding: newBytes[prefix..<(prefix + inserted)], as: UTF8.self)
        return .splice(path: path, offset: prefix, old: oldText, new: newText)
      }
    }
  }

  /// Whether the byte at `index` continues a scalar begun before it.
  private static func isContinuation(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
    index < bytes.count && bytes[index] & 0b1100_0000 == 0b1000_0000
  }
}

extension JSONPatch {
  /// Applies a `splice` to the string at `path`: its `old` text must be found at `offset`.
  static func applySplice(
    at path: JSONPointer, offset: Int, old: String, new: String, to target: inout JSONValue
  ) throws(JSONPatchError) {
    guard case .string(var text) = target else {
      throw JSONPatchError(reason: .spliceFailed("the value is \(target.typeName), not a string"))
    }
    let oldCount = old.utf8.count
    let matches: Bool = text.withUTF8 { bytes in
      guard offset >= 0, offset + oldCount <= bytes.count else { return false }
      if offset < bytes.count && bytes[offset] & 0b1100_0000 == 0b1000_0000 { return false }
      let end = offset + oldCount
      if end < bytes.count && bytes[end] & 0b1100_0000 == 0b1000_0000 { return false }
      return old.utf8.elementsEqual(bytes[offset..<end])
    }
    guard matches else {
      throw JSONPatchError(
        reason: .spliceFailed(
          "the string of \(text.utf8.count) bytes does not hold the old text at byte \(offset)"))
    }
    target = .null  // Drop the document's reference so the text is changed in place.
    let start = text.utf8.index(text.startIndex, offsetBy: offset)
    let end = text.utf8.index(start, offsetBy: oldCount)
    text.replaceSubrange(start..<end, with: new)
    target = .string(text)
  }
}
