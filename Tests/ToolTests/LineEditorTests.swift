import Testing

@testable import tca_replay

/// The stepper's line editor, fed the bytes a terminal sends.
@Suite("The stepper's line editor")
struct LineEditorTests {
  /// Feeds `bytes` through a decoder into `editor`; returns the outcomes that were not `.editing`.
  static func type(_ bytes: [UInt8], into editor: inout LineEditor) -> [LineEditor.Outcome] {
    var decoder = KeyDecoder()
    var outcomes: [LineEditor.Outcome] = []
    for byte in bytes {
      guard let key = decoder.feed(byte) else { continue }
      let outcome = editor.handle(key)
      if outcome != .editing { outcomes.append(outcome) }
    }
    return outcomes
  }

  static let up: [UInt8] = [0x1B, 0x5B, 0x41]
  static let down: [UInt8] = [0x1B, 0x5B, 0x42]
  static let left: [UInt8] = [0x1B, 0x5B, 0x44]
  static let right: [UInt8] = [0x1B, 0x5B, 0x43]
  static let home: [UInt8] = [0x1B, 0x4F, 0x48]
  static let end: [UInt8] = [0x1B, 0x5B, 0x46]
  static let delete: [UInt8] = [0x1B, 0x5B, 0x33, 0x7E]
  static let enter: [UInt8] = [0x0D]

  @Test("arrow keys move the cursor, and typing inserts where it is")
  func cursorMoves() {
    var editor = LineEditor()
    let bytes = Array("nxt".utf8) + Self.left + Self.left + Array("e".utf8) + Self.enter
    #expect(Self.type(bytes, into: &editor) == [.submitted("next")])
  }

  @Test("Home, End, Delete, Backspace, Ctrl-U and Ctrl-K edit the line")
  func editingKeys() {
    var editor = LineEditor()
    // "prnt /x": Home, Right ×2, "i" → "print /x"; End, Backspace → "print /"; "y" → "print /y".
    var bytes = Array("prnt /x".utf8) + Self.home + Self.right + Self.right + Array("i".utf8)
    bytes += Self.end + [0x7F] + Array("y".utf8) + Self.enter
    #expect(Self.type(bytes, into: &editor) == [.submitted("print /y")])
    // Ctrl-A, Delete → "ext"; Ctrl-E, Ctrl-U → ""; "goto 3", Left ×2, Ctrl-K → "goto".
    bytes = Array("next".utf8) + [0x01] + Self.delete + [0x05, 0x15] + Array("goto 3".utf8)
    bytes += Self.left + Self.left + [0x0B] + Self.enter
    #expect(Self.type(bytes, into: &editor) == [.submitted("goto")])
  }

  @Test("Up and Down walk the history and come back to the line being typed")
  func history() {
    var editor = LineEditor()
    _ = Self.type(Array("next\rgoto 40\rgoto 40\r".utf8), into: &editor)
    #expect(editor.history == ["next", "goto 40"])  // A repeat is remembered once.
    var bytes = Array("li".utf8) + Self.up + Self.up + Self.up
    #expect(Self.type(bytes, into: &editor) == [])
    #expect(String(editor.text) == "next")  // Stops at the oldest.
    bytes = Self.down + Self.down
    _ = Self.type(bytes, into: &editor)
    #expect(String(editor.text) == "li")  // Back to the draft.
    #expect(editor.cursor == 2)
    #expect(Self.type(Self.up + Self.enter, into: &editor) == [.submitted("goto 40")])
  }

  @Test("Ctrl-C drops the line, Ctrl-D ends the input only on an empty line")
  func controlKeys() {
    var editor = LineEditor()
    #expect(Self.type(Array("garbage".utf8) + [0x03], into: &editor) == [.cancelled])
    #expect(editor.text.isEmpty)
    // Ctrl-D on "ab" with the cursor on "b" deletes it; on the empty line, it ends the input.
    let bytes = Array("ab".utf8) + Self.left + [0x04, 0x7F, 0x04]
    #expect(Self.type(bytes, into: &editor) == [.endOfInput])
  }

  @Test("a lone Escape, or a sequence cut short, does not swallow the keys after it")
  func brokenSequences() {
    var editor = LineEditor()
    // Escape then "xy"; then Escape "[" interrupted by Ctrl-C.
    #expect(Self.type([0x1B] + Array("xy".utf8) + Self.enter, into: &editor) == [.submitted("xy")])
    #expect(Self.type(Array("ab".utf8) + [0x1B, 0x5B, 0x03], into: &editor) == [.cancelled])
    #expect(Self.type(Array("cd".utf8) + Self.enter, into: &editor) == [.submitted("cd")])
  }

  @Test("CR LF is one Enter: a pasted line does not run twice")
  func carriageReturnLineFeed() {
    var editor = LineEditor()
    let outcomes = Self.type(Array("next\r\nback\n".utf8), into: &editor)
    #expect(outcomes == [.submitted("next"), .submitted("back")])
  }

  @Test("UTF-8 characters arrive whole; unknown sequences and control bytes are dropped")
  func decoding() {
    var editor = LineEditor()
    // "é" (C3 A9), F5 (a function key: ESC [ 1 5 ~), a tab, and "→" (E2 86 92).
    let bytes: [UInt8] =
      [0xC3, 0xA9] + [0x1B, 0x5B, 0x31, 0x35, 0x7E] + [0x09] + [0xE2, 0x86, 0x92] + Self.enter
    #expect(Self.type(bytes, into: &editor) == [.submitted("é→")])
  }
}
