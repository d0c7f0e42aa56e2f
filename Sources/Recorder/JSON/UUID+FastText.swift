import Foundation

extension UUID {
  /// The canonical uppercase text form, e.g. `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
  ///
  /// Same result as `uuidString`, written by hand because Foundation's takes about a
  /// microsecond on Linux and the encoder formats one for every identified element.
  var fastUppercaseString: String {
    let bytes = uuid
    return String(unsafeUninitializedCapacity: 36) { buffer in
      withUnsafeBytes(of: bytes) { raw in
        let digits: StaticString = "0123456789ABCDEF"
        digits.withUTF8Buffer { hex in
          var out = 0
          for position in 0..<16 {
            if position == 4 || position == 6 || position == 8 || position == 10 {
              buffer[out] = UInt8(ascii: "-")
              out += 1
            }
            let byte = raw[position]
            buffer[out] = hex[Int(byte >> 4)]
            buffer[out + 1] = hex[Int(byte & 0x0F)]
            out += 2
          }
        }
      }
      return 36
    }
  }

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
