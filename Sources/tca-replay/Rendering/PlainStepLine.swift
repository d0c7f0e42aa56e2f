import Recorder

/// Appends a step's line as `stepLine(_:style:marker:)` writes it, made safe as
/// `TerminalText.rendered` makes it, in one pass over bytes: what `log` writes for each of a
/// million steps. Returns `false`, having appended nothing, when the general path must write it.
///
/// Only for the common case, which needs neither escaping nor colour: no colour, a label of
/// printable ASCII and a time that rounds to whole milliseconds. Every byte it writes is
/// printable or the origin's arrow, so the line has nothing for `rendered` to change.
///
/// Fast path of `stepLine` and `rendered`; `PlainStepLineTests.sameAsGeneralPath` keeps them equal.
func appendPlainStepLine(_ step: ScannedStep, style: Style, to out: inout [UInt8]) -> Bool {
  guard !style.usesColor else { return false }
  let milliseconds = (step.time * 1000).rounded()
  guard milliseconds.magnitude < 1e15 else { return false }
  var label = step.label
  return label.withUTF8 { label -> Bool in
    for byte in label where byte < 0x20 || byte > 0x7E { return false }
    // Index, time and origin take at most 21 + 2 + 20 + 33 bytes; the suffix 18.
    // Written in a buffer on the stack, then copied once.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: label.count + 128) { buffer in
      var line = LineBytes(base: buffer.baseAddress!)
      // The index, right-aligned in six columns.
      line.spaces(6 - LineBytes.width(step.index))
      line.decimal(step.index)
      line.put("  ")
      // The time as `formatSeconds` spells it, left-aligned in ten columns.
      let whole = Int(milliseconds.magnitude)
      let timeStart = line.end
      if milliseconds < 0 { line.put(UInt8(ascii: "-")) }
      line.decimal(whole / 1000)
      line.put(UInt8(ascii: "."))
      line.decimal(whole % 1000, minimumDigits: 3)
      line.put(" s")
      line.spaces(10 - (line.end - timeStart))
      // The origin, in 13 columns (the arrow, three bytes, is one), then a space.
      switch step.origin {
      case .send:
        line.put("send         ")
      case .effect(let cause):
        line.put("effect ← ")
        if let cause {
          line.decimal(cause)
          line.spaces(13 - 9 - LineBytes.width(cause))
        } else {
          line.put("?   ")
        }
      }
      line.put(" ")
      line.copy(label)
      if !step.isReplayable { line.put("  (not replayable)") }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<line.end]))
    }
    return true
  }
}

/// The line ``appendPlainStepLine(_:style:to:)`` writes, as a string; `nil` when it writes none.
func plainStepLine(_ step: ScannedStep, style: Style) -> String? {
  var out: [UInt8] = []
  guard appendPlainStepLine(step, style: style, to: &out) else { return nil }
  return String(decoding: out, as: UTF8.self)
}

/// Bytes written at a pointer, with no check: the caller sized the room.
private struct LineBytes {
  let base: UnsafeMutablePointer<UInt8>
  var end = 0

  @inline(__always) mutating func put(_ byte: UInt8) {
    base[end] = byte
    end += 1
  }

  @inline(__always) mutating func put(_ text: StaticString) {
    copy(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  @inline(__always) mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress else { return }
    (base + end).update(from: start, count: bytes.count)
    end += bytes.count
  }

  mutating func spaces(_ count: Int) {
    var left = count
    while left > 0 {
      put(0x20)
      left -= 1
    }
  }

  /// `value` as `String(value)` spells it, with leading zeros up to `minimumDigits`: written
  /// backwards from its last digit, one division a digit.
  mutating func decimal(_ value: Int, minimumDigits: Int = 1) {
    if value < 0 { put(UInt8(ascii: "-")) }
    var rest = value.magnitude
    var digits = 1
    while rest >= 10 {
      // Counted first, so the digits go straight into place.
      rest /= 10
      digits += 1
    }
    let width = max(digits, minimumDigits)
    rest = value.magnitude
    var position = end + width
    end = position
    for _ in 0..<width {
      position -= 1
      let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
      base[position] = UInt8(ascii: "0") + UInt8(digit)
      rest = quotient
    }
  }

  /// How many columns `String(value)` takes.
  static func width(_ value: Int) -> Int {
    var count = value < 0 ? 2 : 1
    var rest = value.magnitude
    while rest >= 10 {
      rest /= 10
      count += 1
    }
    return count
  }
}
