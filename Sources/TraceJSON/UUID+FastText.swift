import Foundation

extension UUID {
  /// The canonical uppercase text form, e.g. `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
  ///
  /// Same result as `uuidString`, written by hand because Foundation's takes about a
  /// microsecond on Linux and the encoder formats one for every identified element.
  package var fastUppercaseString: String {
    let u = uuid
    return String(unsafeUninitializedCapacity: 36) { buffer in
      guard let out = buffer.baseAddress, buffer.count >= 36 else { return 0 }
      let hex = Self.uppercaseHexDigits.utf8Start
      @inline(__always)
      func put(_ byte: UInt8, _ offset: Int) {
        out[offset] = hex[Int(byte >> 4)]
        out[offset + 1] = hex[Int(byte & 0x0F)]
      }
        put(u.0, 0)
        put(u.1, 2)
        put(u.2, 4)
        put(u.3, 6)
        put(u.4, 9)
        put(u.5, 11)
        put(u.6, 14)
        put(u.7, 16)
        put(u.8, 19)
        put(u.9, 21)
        put(u.10, 24)
        put(u.11, 26)
        put(u.12, 28)
        put(u.13, 30)
        put(u.14, 32)
        put(u.15, 34)
      out[8] = UInt8(ascii: "-")
      out[13] = UInt8(ascii: "-")
      out[18] = UInt8(ascii: "-")
      out[23] = UInt8(ascii: "-")
      return 36
    }
  }

  private static let uppercaseHexDigits: StaticString = "0123456789ABCDEF"

  /// Parses the 36-character text form (either case); `nil` if `text` is anything else.
  init?(fastText text: String) {
    var text = text
    let parsed: uuid_t? = text.withUTF8 { utf8 in
      guard utf8.count == 36 else { return nil }
      var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      let ok = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
        var input = 0
        for position in 0..<16 {
          if position == 4 || position == 6 || position == 8 || position == 10 {
            guard utf8[input] == UInt8(ascii: "-") else { return false }
            input += 1
          }
          guard let high = Self.hexValue(utf8[input]), let low = Self.hexValue(utf8[input + 1])
          else { return false }
          out[position] = high << 4 | low
          input += 2
        }
        return true
      }
      return ok ? bytes : nil
    }
    guard let parsed else { return nil }
    self.init(uuid: parsed)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
    default: nil
    }
  }
}
