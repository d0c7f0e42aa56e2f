import Testing

@testable import tca_replay

/// The buffer that cuts a replay host's output into lines, each within a limit.
@Suite("A replay host's lines")
struct HostLineBufferTests {
  static func feed(_ text: String, into buffer: inout HostLineBuffer) {
    Array(text.utf8).withUnsafeBytes { buffer.append($0) }
  }

  @Test("lines split across reads come out whole, in order, without their newlines")
  func splitAcrossReads() throws {
    var buffer = HostLineBuffer(maximumLength: 100)
    Self.feed("{\"a\":", into: &buffer)
    #expect(try buffer.nextLine() == nil)
    Self.feed("1}\n{\"b\":2}\n{\"c\"", into: &buffer)
    #expect(try buffer.nextLine() == Array(#"{"a":1}"#.utf8))
    #expect(try buffer.nextLine() == Array(#"{"b":2}"#.utf8))
    #expect(try buffer.nextLine() == nil)
    Self.feed(":3}\n", into: &buffer)
    #expect(try buffer.nextLine() == Array(#"{"c":3}"#.utf8))
    #expect(buffer.isEmpty)
  }

  @Test("a line of exactly the limit is accepted; one byte more is refused before its newline")
  func limit() throws {
    var buffer = HostLineBuffer(maximumLength: 8)
    Self.feed("12345678\n", into: &buffer)
    #expect(try buffer.nextLine() == Array("12345678".utf8))
    Self.feed("12345678", into: &buffer)
    #expect(try buffer.nextLine() == nil)
    Self.feed("9", into: &buffer)
    #expect(throws: HostLineBuffer.LineTooLong.self) { try buffer.nextLine() }
  }

  @Test("a long line fed in small reads is refused once it passes the limit, not at its end")
  func longLineInSmallReads() throws {
    var buffer = HostLineBuffer(maximumLength: 1 << 20)
    let piece = String(repeating: "a", count: 4096)
    var reads = 0
    var refused = false
    while reads < 1000 {
      Self.feed(piece, into: &buffer)
      reads += 1
      do {
        #expect(try buffer.nextLine() == nil)
      } catch {
        refused = true
        break
      }
    }
    #expect(refused)
    #expect(reads == 257)  // 256 reads are exactly 1 MiB; the next passes it.
  }
}
