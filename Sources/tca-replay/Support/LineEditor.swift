#if canImport(Glibc)
  import Glibc
#endif

/// The keys the stepper's line editor understands.
enum Key: Equatable {
  case character(Character)
  case enter, backspace, delete
  case left, right, home, end
  case up, down
  /// Ctrl-D: ends the input on an empty line, deletes under the cursor otherwise.
  case endOfInput
  /// Ctrl-C: drops the line being typed.
  case interrupt
  /// Ctrl-U and Ctrl-K: delete to the start or the end of the line.
  case killToStart, killToEnd
  /// A control key or escape sequence with no meaning here.
  case ignored
}

/// Turns the bytes a terminal sends into keys: UTF-8 characters, control keys, and the escape
/// sequences of the arrow, Home, End and Delete keys.
struct KeyDecoder {
  private enum State {
    case ground
    case escape
    /// After `ESC [`: the parameter bytes so far.
    case controlSequence([UInt8])
    /// After `ESC O`.
    case singleShift
    /// A UTF-8 character's bytes so far, and how many it has in all.
    case utf8([UInt8], Int)
  }

  private var state = State.ground
  /// Whether the last byte was a carriage return: a line feed right after it is the same Enter.
  private var afterReturn = false

  /// The key `byte` completes, or `nil` while a sequence is still incomplete.
  mutating func feed(_ byte: UInt8) -> Key? {
    let afterReturn = self.afterReturn
    self.afterReturn = false
    switch state {
    case .ground:
      if byte == 0x0A, afterReturn { return nil }
      return ground(byte)
    case .escape:
      switch byte {
      case UInt8(ascii: "["): state = .controlSequence([])
      case UInt8(ascii: "O"): state = .singleShift
      default:
        // A lone Escape: the byte after it is a key of its own.
        state = .ground
        return ground(byte)
      }
      return nil
    case .controlSequence(var parameters):
      switch byte {
      case 0x20...0x3F where parameters.count < 16:
        // Parameter and intermediate bytes, until a final byte.
        parameters.append(byte)
        state = .controlSequence(parameters)
        return nil
      case 0x40...0x7E:
        state = .ground
        return Self.finalKey(byte, parameters: String(decoding: parameters, as: UTF8.self))
      default:
        // Not a sequence after all: the byte is a key of its own.
        state = .ground
        return ground(byte)
      }
    case .singleShift:
      state = .ground
      return Self.finalKey(byte, parameters: "")
    case .utf8(var bytes, let length):
      guard byte & 0xC0 == 0x80 else {
        state = .ground
        return ground(byte)  // A broken character: drop it and read this byte afresh.
      }
      bytes.append(byte)
      guard bytes.count == length else {
        state = .utf8(bytes, length)
        return nil
      }
      state = .ground
      // A C1 control (U+0080…U+009F) typed or pasted would act when the line is redrawn.
      return String(validating: bytes, as: UTF8.self).flatMap(\.first)
        .flatMap { $0.unicodeScalars.contains(where: TerminalText.isControl) ? nil : $0 }
        .map(Key.character) ?? .ignored
    }
  }

  private mutating func ground(_ byte: UInt8) -> Key? {
    switch byte {
    case 0x1B: state = .escape; return nil
    case 0x0D:
      afterReturn = true
      return .enter
    case 0x0A: return .enter
    case 0x7F, 0x08: return .backspace
    case 0x01: return .home  // Ctrl-A
    case 0x05: return .end  // Ctrl-E
    case 0x02: return .left  // Ctrl-B
    case 0x06: return .right  // Ctrl-F
    case 0x10: return .up  // Ctrl-P
    case 0x0E: return .down  // Ctrl-N
    case 0x04: return .endOfInput
    case 0x03: return .interrupt
    case 0x15: return .killToStart
    case 0x0B: return .killToEnd
    case 0x20...0x7E: return .character(Character(Unicode.Scalar(byte)))
    case 0xC2...0xDF: state = .utf8([byte], 2); return nil
    case 0xE0...0xEF: state = .utf8([byte], 3); return nil
    case 0xF0...0xF4: state = .utf8([byte], 4); return nil
    default: return .ignored
    }
  }

  private static func finalKey(_ byte: UInt8, parameters: String) -> Key {
    switch (byte, parameters) {
    case (UInt8(ascii: "A"), _): return .up
    case (UInt8(ascii: "B"), _): return .down
    case (UInt8(ascii: "C"), _): return .right
    case (UInt8(ascii: "D"), _): return .left
    case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .home
    case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .end
    case (UInt8(ascii: "~"), "3"): return .delete
    default: return .ignored
    }
  }
}

/// The line being typed at the stepper's prompt, and the commands typed before it.
struct LineEditor {
  /// What a key did to the line.
  enum Outcome: Equatable {
    case editing
    /// Enter: the line is done.
    case submitted(String)
    /// Ctrl-C: the line was dropped.
    case cancelled
    /// Ctrl-D on an empty line.
    case endOfInput
  }

  private(set) var text: [Character] = []
  private(set) var cursor = 0
  private(set) var history: [String] = []
  /// Where Up and Down are in the history; `nil` on the line being typed.
  private var historyPosition: Int?
  /// The line being typed, kept while Up and Down show older ones.
  private var draft: [Character] = []

  mutating func handle(_ key: Key) -> Outcome {
    switch key {
    case .character(let character):
      text.insert(character, at: cursor)
      cursor += 1
    case .enter:
      let line = String(text)
      if !line.allSatisfy(\.isWhitespace), history.last != line { history.append(line) }
      reset()
      return .submitted(line)
    case .backspace:
      if cursor > 0 {
        cursor -= 1
        text.remove(at: cursor)
      }
    case .delete:
      if cursor < text.count { text.remove(at: cursor) }
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(text.count, cursor + 1)
    case .home: cursor = 0
    case .end: cursor = text.count
    case .up:
      guard !history.isEmpty else { break }
      let position: Int
      if let current = historyPosition {
        position = max(0, current - 1)
      } else {
        draft = text
        position = history.count - 1
      }
      show(Array(history[position]), at: position)
    case .down:
      guard let current = historyPosition else { break }
      if current + 1 < history.count {
        show(Array(history[current + 1]), at: current + 1)
      } else {
        show(draft, at: nil)
      }
    case .endOfInput:
      if text.isEmpty { return .endOfInput }
      if cursor < text.count { text.remove(at: cursor) }
    case .interrupt:
      reset()
      return .cancelled
    case .killToStart:
      text.removeSubrange(0..<cursor)
      cursor = 0
    case .killToEnd:
      text.removeSubrange(cursor...)
    case .ignored:
      break
    }
    return .editing
  }

  private mutating func show(_ line: [Character], at position: Int?) {
    text = line
    cursor = line.count
    historyPosition = position
  }

  private mutating func reset() {
    text = []
    cursor = 0
    historyPosition = nil
    draft = []
  }
}

/// Reads lines from a terminal with a ``LineEditor``: the terminal is put in raw mode only while
/// a line is read, and every key redraws the prompt and the line, over as many rows as they
/// take. Widths are counted in characters: a wide character (CJK, emoji) may misplace the cursor.
struct TerminalLineReader {
  private var editor = LineEditor()
  private var decoder = KeyDecoder()
  private let output: StandardStream
  /// The row of the cursor, counted from the prompt's first row.
  private var cursorRow = 0

  /// A reader for standard input, or `nil` when it is not a terminal whose mode can be set.
  init?(output: StandardStream) {
    var mode = termios()
    guard isatty(0) == 1, isatty(output.descriptor) == 1, tcgetattr(0, &mode) == 0 else {
      return nil
    }
    self.output = output
  }

  /// Shows `prompt` and reads one line; `nil` at the end of the input.
  mutating func readLine(prompt: String) -> String? {
    // The prompt holds a label from the trace: escaped, with the tool's colour codes kept.
    let prompt = TerminalText.rendered(prompt)
    guard tcgetattr(0, &terminalMode) == 0 else { return Swift.readLine(strippingNewline: true) }
    var raw = terminalMode
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    // A hang-up or kill while a line is typed must not leave the terminal without echo.
    let handlers = [SIGTERM, SIGHUP, SIGQUIT].map { ($0, signal($0, restoreTerminalAndRaise)) }
    guard tcsetattr(0, TCSANOW, &raw) == 0 else { return Swift.readLine(strippingNewline: true) }
    defer {
      tcsetattr(0, TCSANOW, &terminalMode)
      for (number, handler) in handlers { signal(number, handler) }
    }

    cursorRow = 0
    redraw(prompt)
    while true {
      var byte: UInt8 = 0
      let count = read(0, &byte, 1)
      if count < 0, errno == EINTR { continue }
      guard count == 1 else { return nil }
      guard let key = decoder.feed(byte) else { continue }
      let length = editor.text.count
      switch editor.handle(key) {
      case .editing:
        redraw(prompt)
      case .submitted(let line):
        output.writeRaw(belowLine(prompt, length: line.count) + "\r\n")
        return line
      case .cancelled:
        // The line is gone from the editor; the rows it took stay on screen.
        output.writeRaw(belowLine(prompt, length: length) + "^C\r\n")
        cursorRow = 0
        redraw(prompt)
      case .endOfInput:
        return nil
      }
    }
  }

  /// Rewrites the prompt and the line from the prompt's first row, clears what is below, and
  /// puts the cursor back where it is in the text.
  private mutating func redraw(_ prompt: String) {
    let width = terminalWidth()
    let promptWidth = visibleWidth(prompt)
    let end = promptWidth + editor.text.count
    var out = cursorRow > 0 ? "\u{1B}[\(cursorRow)A" : ""
    out += "\r" + prompt + String(editor.text) + "\u{1B}[J"
    // A line that ends exactly at the right margin leaves the cursor there, not on a new row.
    if end > 0, end % width == 0 { out += "\r\n" }
    let target = promptWidth + editor.cursor
    let rowsUp = end / width - target / width
    if rowsUp > 0 { out += "\u{1B}[\(rowsUp)A" }
    out += "\r" + (target % width > 0 ? "\u{1B}[\(target % width)C" : "")
    cursorRow = target / width
    output.writeRaw(out)
  }

  /// Moves from the cursor to the end of a line `length` characters long.
  private func belowLine(_ prompt: String, length: Int) -> String {
    let width = terminalWidth()
    let end = visibleWidth(prompt) + length
    let rows = end / width - cursorRow
    return (rows > 0 ? "\u{1B}[\(rows)B" : "") + "\r"
      + (end % width > 0 ? "\u{1B}[\(end % width)C" : "")
  }

  private func terminalWidth() -> Int {
    var size = winsize()
    guard ioctl(output.descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
      return 80
    }
    return Int(size.ws_col)
  }

  /// The characters of `text` that take a column: not those of `ESC [ … m` colour codes.
  private func visibleWidth(_ text: String) -> Int {
    var width = 0
    var inEscape = false
    for scalar in text.unicodeScalars {
      if inEscape {
        if (0x40...0x7E).contains(scalar.value), scalar != "[" { inEscape = false }
      } else if scalar == "\u{1B}" {
        inEscape = true
      } else {
        width += 1
      }
    }
    return width
  }
}

/// The terminal's mode before a line was read, for the signal handler to put back.
nonisolated(unsafe) private var terminalMode = termios()

/// Puts the terminal's mode back, then dies of `number` as if no handler had been set.
private func restoreTerminalAndRaise(_ number: Int32) {
  tcsetattr(0, TCSANOW, &terminalMode)
  signal(number, SIG_DFL)
  raise(number)
}
