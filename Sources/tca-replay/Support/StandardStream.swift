#if canImport(Glibc)
  import Glibc
#endif

/// Standard output or standard error, written with plain `write` calls.
///
/// Everything written goes through ``TerminalText``: control characters from a trace reach the
/// terminal escaped, whichever command printed them.
struct StandardStream: Sendable {
  let descriptor: Int32

  static let output = StandardStream(descriptor: 1)
  static let error = StandardStream(descriptor: 2)

  /// Writes text for people: control characters escaped as `\u{1B}`, line breaks and the
  /// tool's own colour codes kept.
  func write(_ text: String) {
    writeRaw(TerminalText.rendered(text))
  }

  /// Writes JSON text, whose writer escapes control characters in strings except DEL and C1:
  /// those become `\u007f` escapes, so the output is the same JSON and inert on a terminal.
  func writeJSON(_ text: String) {
    writeRaw(TerminalText.rendered(text, escape: .json))
  }

  /// Writes UTF-8 bytes as they are: only text already made safe, as ``writeRaw(_:)-(String)``.
  func writeRaw(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { writeAll($0) }
  }

  /// Writes every byte, or stops at the first failed write.
  private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written <= 0 { return }
      offset += written
    }
  }

  /// Writes `text` as it is: only for terminal control the tool composes itself (the line
  /// editor's cursor movements), from parts already passed through ``TerminalText``.
  func writeRaw(_ text: String) {
    var text = text
    text.withUTF8 { writeAll($0) }
  }
}
