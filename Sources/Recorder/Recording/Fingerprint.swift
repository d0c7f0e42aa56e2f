import TraceJSON

/// Fingerprints of a state's and an action's type, written in the trace header.
///
/// A fingerprint hashes the type's name together with the shape of its encoding (member names
/// and JSON types, recursively; array elements merged). A trace recorded by a build whose
/// state gained, lost or renamed a field has a different state fingerprint.
enum Fingerprint {
  static func of(typeName: String, sample: JSONValue?) -> String {
    var hasher = FNV1a()
    hasher.combine(typeName)
    if let sample { hasher.combine(shape(of: sample)) }
    return hasher.hexDigest
  }

  /// A canonical description of a value's shape: `{count:number,todos:[{id:string}]}`.
  static func shape(of value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "boolean"
    case .integer, .unsignedInteger, .double: return "number"
    case .string: return "string"
    case let .array(elements):
      let shapes = Set(elements.map { shape(of: $0) }).sorted()
      return "[\(shapes.joined(separator: "|"))]"
    case let .object(object):
      return "{" + object.map { "\($0.key):\(shape(of: $0.value))" }.joined(separator: ",") + "}"
    }
  }
}

/// The 64-bit FNV-1a hash: small, stable across processes and platforms.
struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func combine(_ string: String) {
    for byte in string.utf8 {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
    value ^= 0xff
    value = value &* 0x0000_0100_0000_01b3
  }

  var hexDigest: String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
