/// What a line's first bytes say it is, for lines written the way this build writes them.
enum LineHead: Equatable {
  case step(Int)
  case keyframe(Int)
  case effect
  /// Anything else: the line must be parsed to know.
  case other

  private static let stepMarker: StaticString = #"{"kind":"step","index":"#
  private static let keyframeMarker: StaticString = #"{"kind":"keyframe","index":"#
  private static let effectMarker: StaticString = #"{"kind":"effect","#

  /// Reads the first bytes of a line.
  init(_ bytes: UnsafeRawBufferPointer) {
    if let index = Self.integer(after: Self.stepMarker, in: bytes) {
      self = .step(index)
    } else if let index = Self.integer(after: Self.keyframeMarker, in: bytes) {
      self = .keyframe(index)
    } else if Self.starts(bytes, with: Self.effectMarker) {
      self = .effect
    } else {
      self = .other
    }
  }

  private static func starts(_ bytes: UnsafeRawBufferPointer, with marker: StaticString) -> Bool {
    let count = marker.utf8CodeUnitCount
    guard bytes.count >= count else { return false }
    // Eight bytes at a time, inline: this runs once per line of a million-line trace.
    let expected = UnsafeRawPointer(marker.utf8Start)
    var offset = 0
    while offset + 8 <= count {
      guard
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < count {
      guard bytes[offset] == expected.load(fromByteOffset: offset, as: UInt8.self) else {
        return false
      }
      offset += 1
    }
    return true
  }

  /// The decimal integer right after `marker`, when the bytes start with it.
  private static func integer(after marker: StaticString, in bytes: UnsafeRawBufferPointer) -> Int?
  {
    guard starts(bytes, with: marker) else { return nil }
    var value = 0
    var position = marker.utf8CodeUnitCount
    while position < bytes.count, position - marker.utf8CodeUnitCount < 18 {
      let digit = bytes[position] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      value = value * 10 + Int(digit)
      position += 1
    }
    // No digits, or too many to be an index written by this build: let the parser decide.
    guard position > marker.utf8CodeUnitCount, position < bytes.count,
      bytes[position] == UInt8(ascii: ",")
    else { return nil }
    return value
  }
}
