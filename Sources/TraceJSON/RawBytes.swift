import Foundation

/// Byte comparisons that let the walk pass over unchanged elements without calling `==`.
///
/// The walk's collection code is not specialised for the app's types, so `==` on an element
/// costs a copy, a witness call and a destroy, which over a large collection cost more than the
/// whole state's copy. Two elements whose bytes are equal share every reference and
/// every stored value, so they encode the same (as `==` would say, an instance of a class
/// changed in place compares equal to itself either way). Bytes that differ prove nothing: the
/// caller then asks `==`. Only `size` bytes of each element are compared, never the padding
/// that a stride adds after them, which copies do not carry.
package enum RawBytes {
  /// Where an element's bytes are: its size, and the stride between elements.
  package struct Layout {
    package let size: Int
    package let stride: Int
    /// Whole 8-byte words in `size`, and the bytes after them.
    package let words: Int
    package let tailBytes: Int
    /// Whether the tail can be read as one word: it stays within the stride.
    package let tailFitsWord: Bool
    package let tailMask: UInt64

    @inlinable
    package init<T>(of _: T.Type) {
      size = MemoryLayout<T>.size
      stride = MemoryLayout<T>.stride
      words = size / 8
      tailBytes = size % 8
      tailFitsWord = words * 8 + 8 <= stride
      tailMask = tailBytes == 0 ? 0 : (1 << UInt64(tailBytes * 8)) &- 1
    }
  }

  /// Whether the elements at `lhs` and `rhs` have equal bytes.
  @inlinable @inline(__always)
  package static func equal(
    _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ layout: Layout
  ) -> Bool {
    var offset = 0
    let wordBytes = layout.words &* 8
    while offset < wordBytes {
      if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset &+= 8
    }
    guard layout.tailBytes > 0 else { return true }
    if layout.tailFitsWord {
      // The element's bytes are the word's first ones, the low ones once read little-endian.
      let difference =
        lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        ^ rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      return difference.littleEndian & layout.tailMask == 0
    }
    while offset < layout.size {
      if lhs.load(fromByteOffset: offset, as: UInt8.self)
        != rhs.load(fromByteOffset: offset, as: UInt8.self)
      {
        return false
      }
      offset &+= 1
    }
    return true
  }

  /// How many elements, from the first, have equal bytes in both runs of `count` elements.
  @inlinable
  package static func commonPrefix(
    _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int, _ layout: Layout
  ) -> Int {
    if lhs == rhs { return count }
    let stride = layout.stride
    var position = 0
    // Whole blocks first, padding included: a block of equal bytes is a block of equal elements.
    let perBlock = Swift.max(1, 4_096 / stride)
    while position + perBlock <= count,
      memcmp(lhs + position * stride, rhs + position * stride, perBlock * stride) == 0
    {
      position += perBlock
    }
    while position < count, equal(lhs + position * stride, rhs + position * stride, layout) {
      position += 1
    }
    return position
  }

  /// How many elements, from the last, have equal bytes in both runs of `count` elements, given
  /// the addresses just past each run's end.
  @inlinable
  package static func commonSuffix(
    endingAt lhsEnd: UnsafeRawPointer, _ rhsEnd: UnsafeRawPointer, count: Int, _ layout: Layout
  ) -> Int {
    if lhsEnd == rhsEnd { return count }
    let stride = layout.stride
    var matched = 0
    let perBlock = Swift.max(1, 4_096 / stride)
    while matched + perBlock <= count,
      memcmp(
        lhsEnd - (matched + perBlock) * stride, rhsEnd - (matched + perBlock) * stride,
        perBlock * stride) == 0
    {
      matched += perBlock
    }
    while matched < count,
      equal(lhsEnd - (matched + 1) * stride, rhsEnd - (matched + 1) * stride, layout)
    {
      matched += 1
    }
    return matched
  }
}
