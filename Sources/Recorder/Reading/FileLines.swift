import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines of a file from an offset on, read in 1 MiB chunks; each line's bytes stay valid
/// until the next call.
final class FileLines {
  struct Line {
    var offset: Int
    var bytes: UnsafeBufferPointer<UInt8>
    var head: LineHead {
      LineHead(UnsafeRawBufferPointer(start: bytes.baseAddress, count: min(bytes.count, 48)))
    }
    var isBlank: Bool {
      guard let first = bytes.first else { return true }
      guard first != UInt8(ascii: "{") else { return false }
      return bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
    /// A copy, for the full parser.
    var slice: ArraySlice<UInt8> { Array(bytes)[...] }
  }

  private let file: LineFile
  private var buffer: UnsafeMutablePointer<UInt8>
  private var capacity = 1 << 20
  /// The file offset of `buffer[0]`.
  private var bufferOffset: Int
  private var start = 0
  private var end = 0
  private var isAtEnd = false
  /// The length of a last line without its newline, once the end is reached.
  private(set) var tornLineLength = 0
  /// Whether that line holds only spaces, tabs and carriage returns.
  private(set) var tornBytesAreBlank = false

  init(file: LineFile, from offset: Int) {
    self.file = file
    bufferOffset = offset
    buffer = .allocate(capacity: capacity)
  }

  deinit { buffer.deallocate() }

  struct TooLong: Error {}

  /// The next complete line; `nil` at the end of the file.
  func next() throws(TooLong) -> Line? {
    var searched = start
    while true {
      if let hit = memchr(buffer + searched, 0x0A, end - searched) {
        let newline = UnsafeMutablePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - buffer
        let line = Line(
          offset: bufferOffset + start,
          bytes: UnsafeBufferPointer(start: buffer + start, count: newline - start))
        start = newline + 1
        return line
      }
      searched = end
      guard end - start <= maximumTraceLineLength else { throw TooLong() }
      if isAtEnd {
        tornLineLength = end - start
        tornBytesAreBlank = UnsafeBufferPointer(start: buffer + start, count: end - start)
          .allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        start = end
        return nil
      }
      // Keep the line begun, at the front; grow for a long one.
      let kept = end - start
      if kept > 0 { memmove(buffer, buffer + start, kept) }
      bufferOffset += start
      searched -= start
      start = 0
      end = kept
      if capacity - end < 1 << 19 {
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        grown.update(from: buffer, count: end)
        buffer.deallocate()
        buffer = grown
        capacity *= 2
      }
      let read = (try? file.read(into: buffer + end, count: capacity - end, at: bufferOffset + end))
        ?? 0
      if read == 0 { isAtEnd = true }
      end += read
    }
  }
}
