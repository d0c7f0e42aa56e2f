#if canImport(Glibc)
  import Glibc
#endif

/// Standard output or standard error, written with plain `write` calls.
struct StandardStream: Sendable {
  let descriptor: Int32

  static let output = StandardStream(descriptor: 1)
  static let error = StandardStream(descriptor: 2)

  func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
