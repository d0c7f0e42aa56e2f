/// Makes text safe to show on a terminal: what a trace holds must not move the cursor, clear
/// the screen, set the window title or ring the bell of whoever reads it.
///
/// Every control character (C0, DEL and C1: Unicode's `Cc` category, ESC and the 8-bit CSI
/// included) and every bidirectional control (U+202E and its kin, which can make a line read
/// other than it is) is shown as a Swift-style escape, `\u{1B}`, so it is visible and cannot act.
/// ``StandardStream`` applies ``rendered(_:)`` to everything the tool writes, so no command can
/// forget it; the colour codes ``Style`` adds carry a key no trace can know, and only they pass.
///
/// ```swift
/// TerminalText.escaped("a\u{1B}]0;pwned\u{07}b")  // a\u{1B}]0;pwned\u{7}b
/// ```
enum TerminalText {
  /// How a control character is written: for people (`\u{1B}`) or inside JSON (`\u001b`).
  enum Escape {
    /// `\u{1B}`, as Swift writes it.
    case swift
    /// `\u001b`, valid inside a JSON string: where JSON output holds a control character.
    case json
  }

  /// `text` with every control character escaped, line breaks included: for one-line fields
  /// (labels, names, pointers, error messages) that must not forge a line of their own.
  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      append(scalar, to: &result, escape: .swift)
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// Text as the tool writes it: control characters escaped except line breaks, which lay out
  /// the tool's own output, and except the colour codes ``Style`` made in this process.
  static func rendered(_ text: String, escape: Escape = .swift) -> String {
    guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" }) else {
      return text
    }
    let scalars = Array(text.unicodeScalars)
    let key = Array(Style.key.unicodeScalars)
    // NB: bytes, decoded once: appending to a `String.UnicodeScalarView` copied the whole text
    // at each escape, quadratic in a text of control characters.
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count + 16)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\u{1B}", scalars[(index + 1)...].starts(with: key) {
        // A colour code of this process: ESC, the key, then `[31m`. The key is dropped.
        result.append(0x1B)
        index += 1 + key.count
        continue
      }
      if scalar == "\n" {
        result.append(0x0A)
      } else {
        append(scalar, to: &result, escape: escape)
      }
      index += 1
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// Appends the JSON text `write` appends, as ``StandardStream/writeJSON(_:)`` writes it: a
  /// line of printable ASCII, what almost every listing is, needs nothing else.
  static func appendJSON(_ write: (inout [UInt8]) -> Void, to out: inout [UInt8]) {
    let start = out.count
    write(&out)
    let isPrintable = out.withUnsafeBufferPointer {
      isPrintableASCII(UnsafeBufferPointer(rebasing: $0[start...]))
    }
    guard !isPrintable else { return }
    let text = String(decoding: out[start...], as: UTF8.self)
    out.removeSubrange(start...)
    out.append(contentsOf: rendered(text, escape: .json).utf8)
  }

  /// Whether every byte is printable ASCII (0x20 to 0x7E), eight at a time.
  static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var offset = 0
    while bytes.count - offset >= 8 {
      let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
      let del = word ^ (ones &* 0x7F)
      // A byte below 0x20, equal to 0x7F, or from 0x80 up.
      let special = ((word &- ones &* 0x20) & ~word) | ((del &- ones) & ~del) | word
      if special & highs != 0 { return false }
      offset += 8
    }
    while offset < bytes.count {
      guard base[offset] &- 0x20 < 0x5F else { return false }
      offset += 1
    }
    return true
  }

  /// Whether a terminal may act on `scalar`, or it may make a line read other than it is: C0,
  /// DEL, C1, and the bidirectional marks, embeddings, overrides and isolates.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
      true
    default:
      false
    }
  }

  private static func append(_ scalar: Unicode.Scalar, to result: inout [UInt8], escape: Escape) {
    guard isControl(scalar) else {
      result.append(contentsOf: UTF8.encode(scalar)!)
      return
    }
    let hex = String(scalar.value, radix: 16, uppercase: escape == .swift)
    switch escape {
    case .swift:
      result.append(contentsOf: "\\u{\(hex)}".utf8)
    case .json:
      result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
    }
  }
}

extension String {
  /// The text with control characters shown as `\u{1B}` escapes, line breaks included: typed
  /// arrow keys, or a label from a trace, would otherwise act on the terminal when printed.
  var escapingControlCharacters: String { TerminalText.escaped(self) }
}
