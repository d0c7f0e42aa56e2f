import Foundation
import TraceJSON

/// The buckets of a `Dictionary` or `Set`, read in place, so that two versions of one can be
/// compared by their bytes, bucket by bucket, without a call per element.
///
/// A copy-on-write copy keeps its original's bucket count and hash seed, so every member stays
/// in its bucket: a change to one member changes the bytes of one bucket, or of a few where an
/// insertion or removal moves the members after it. Only those are then looked up with the
/// public API and compared with `==` (see ``RawBytes`` on why equal bytes mean equal members).
///
/// The standard library does not publish this layout. It is that of Swift's native hash table
/// storage, and every view is checked before use against what the public API says of the same
/// collection: the count, the bitmap's population, where the tail-allocated arrays start, and the
/// first member's bytes. Anything that does not match, and any platform with Objective-C
/// bridging, gives `nil`, and the caller compares through the public API instead.
///
/// Fast path beside `==`; `ByteComparisonTests.paddedAndGrowing` keeps the patches equal.
struct NativeHashTable {
  let bitmap: UnsafePointer<UInt64>
  let bucketCount: Int
  let seed: Int
  let keys: UnsafeRawPointer
  /// The values of a dictionary; `nil` for a set.
  let values: UnsafeRawPointer?

  /// Byte offsets within the storage object, after its two-word object header.
  private enum Offset {
    static let count = 16
    static let capacity = 24
    static let scale = 32
    static let seed = 40
    static let keys = 48
    static let values = 56
    /// Where a dictionary's (set's) bitmap starts: after its stored properties.
    static let dictionaryBitmap = 64
    static let setBitmap = 56
  }

  /// The table of `dictionary`, or `nil` if it cannot be read as a native hash table.
  static func of<Key, Value>(dictionary: [Key: Value]) -> NativeHashTable? {
    guard let first = dictionary.first?.key else { return nil }
    return checked(
      dictionary, count: dictionary.count, bitmapOffset: Offset.dictionaryBitmap,
      firstKey: first, valueAlignment: MemoryLayout<Value>.alignment)
  }

  /// The table of `set`, or `nil` if it cannot be read as a native hash table.
  static func of<Element>(set: Set<Element>) -> NativeHashTable? {
    guard let first = set.first else { return nil }
    return checked(
      set, count: set.count, bitmapOffset: Offset.setBitmap, firstKey: first,
      valueAlignment: nil)
  }

  /// The table of a non-empty dictionary or set, whose first member in iteration order (in
  /// the first occupied bucket) has the key `firstKey`.
  private static func checked<Collection, Key>(
    _ collection: Collection, count: Int, bitmapOffset: Int, firstKey: Key, valueAlignment: Int?
  ) -> NativeHashTable? {
    guard MemoryLayout<Collection>.size == MemoryLayout<UnsafeRawPointer>.size,
      let table = NativeHashTable(
        object: unsafeBitCast(collection, to: UnsafeRawPointer.self), count: count,
        bitmapOffset: bitmapOffset, key: RawBytes.Layout(of: Key.self),
        keyAlignment: MemoryLayout<Key>.alignment, valueAlignment: valueAlignment),
      table.holds(firstKey, inArray: table.keys, at: table.firstBucket)
    else { return nil }
    return table
  }

  private init?(
    object: UnsafeRawPointer, count: Int, bitmapOffset: Int, key: RawBytes.Layout,
    keyAlignment: Int, valueAlignment: Int?
  ) {
    #if canImport(ObjectiveC)
      // A dictionary there may be a bridged `NSDictionary`, with other bits in its reference.
      return nil
    #else
      guard Int(bitPattern: object) % 16 == 0,
        object.load(fromByteOffset: Offset.count, as: Int.self) == count
      else { return nil }
      let capacity = object.load(fromByteOffset: Offset.capacity, as: Int.self)
      let scale = Int(object.load(fromByteOffset: Offset.scale, as: Int8.self))
      guard (1..<48).contains(scale), count <= capacity, capacity < 1 << scale else { return nil }
      let bucketCount = 1 << scale
      let words = (bucketCount + 63) / 64
      let bitmap = object + bitmapOffset
      func aligned(_ address: UnsafeRawPointer, _ alignment: Int) -> UnsafeRawPointer {
        address.alignedUp(toMultipleOf: alignment)
      }
      let keys = aligned(bitmap + words * 8, keyAlignment)
      guard object.load(fromByteOffset: Offset.keys, as: UnsafeRawPointer.self) == keys
      else { return nil }
      var values: UnsafeRawPointer?
      if let valueAlignment {
        let expected = aligned(keys + bucketCount * key.stride, valueAlignment)
        guard object.load(fromByteOffset: Offset.values, as: UnsafeRawPointer.self) == expected
        else { return nil }
        values = expected
      }
      let words64 = bitmap.assumingMemoryBound(to: UInt64.self)
      var population = 0
      for word in 0..<words { population += words64[word].nonzeroBitCount }
      guard population == count else { return nil }
      self.bitmap = words64
      self.bucketCount = bucketCount
      self.seed = object.load(fromByteOffset: Offset.seed, as: Int.self)
      self.keys = keys
      self.values = values
    #endif
  }

  private var wordCount: Int { (bucketCount + 63) / 64 }

  private var firstBucket: Int {
    var word = 0
    while bitmap[word] == 0 { word += 1 }
    return word * 64 + bitmap[word].trailingZeroBitCount
  }

  /// Whether the element of the array at `base` in `bucket` has the bytes of `value`.
  private func holds<T>(_ value: T, inArray base: UnsafeRawPointer, at bucket: Int) -> Bool {
    let layout = RawBytes.Layout(of: T.self)
    var value = value
    return withUnsafeBytes(of: &value) { bytes in
      guard let address = bytes.baseAddress else { return layout.size == 0 }
      return RawBytes.equal(base + bucket * layout.stride, address, layout)
    }
  }

  /// The buckets whose member differs between `old` and `new`, tables of one collection type
  /// with the same buckets and seed: in `old`, buckets whose member may be gone; in `new`,
  /// buckets whose member may be new or changed. `nil` if the tables are laid out differently.
  static func differingBuckets(
    old: NativeHashTable, new: NativeHashTable, key: RawBytes.Layout, value: RawBytes.Layout?
  ) -> (old: [Int], new: [Int])? {
    guard old.bucketCount == new.bucketCount, old.seed == new.seed else { return nil }
    var oldBuckets: [Int] = []
    var newBuckets: [Int] = []
    let (oldKeys, newKeys, keyStride) = (old.keys, new.keys, key.stride)
    // A set's "values" are compared as empty: zero bytes are always equal.
    let valueLayout = value ?? RawBytes.Layout(of: Void.self)
    let oldValues = old.values ?? oldKeys
    let newValues = new.values ?? newKeys
    let valueStride = valueLayout.stride
    for word in 0..<old.wordCount {
      let oldBits = old.bitmap[word]
      let newBits = new.bitmap[word]
      // A block of 64 buckets is passed over at once when its bytes are all equal, empty
      // buckets included (they hold whatever the memory held before, so this is only a fast
      // path, but a copy's memory is often an older copy's, with the same members in place),
      // or, for a set of one- or two-word members, when its occupied buckets are.
      if oldBits == newBits, word &* 64 &+ 64 <= old.bucketCount {
        let first = word &* 64
        let keysEqual =
          memcmp(oldKeys + first &* keyStride, newKeys + first &* keyStride, 64 &* keyStride) == 0
        if keysEqual,
          valueLayout.size == 0
            || memcmp(
              oldValues + first &* valueStride, newValues + first &* valueStride,
              64 &* valueStride) == 0
        {
          continue
        }
        if !keysEqual, valueLayout.size == 0, key.size == key.stride,
          key.stride == 8 || key.stride == 16,
          !occupiedDiffer(
            oldKeys + first &* keyStride, newKeys + first &* keyStride, words: key.stride / 8,
            occupied: oldBits)
        {
          continue
        }
      }
      var both = oldBits & newBits
      while both != 0 {
        let bucket = word &* 64 &+ both.trailingZeroBitCount
        both &= both &- 1
        if !RawBytes.equal(oldKeys + bucket &* keyStride, newKeys + bucket &* keyStride, key) {
          oldBuckets.append(bucket)
          newBuckets.append(bucket)
        } else if !RawBytes.equal(
          oldValues + bucket &* valueStride, newValues + bucket &* valueStride, valueLayout)
        {
          newBuckets.append(bucket)
        }
      }
      var onlyOld = oldBits & ~newBits
      while onlyOld != 0 {
        oldBuckets.append(word &* 64 &+ onlyOld.trailingZeroBitCount)
        onlyOld &= onlyOld &- 1
      }
      var onlyNew = newBits & ~oldBits
      while onlyNew != 0 {
        newBuckets.append(word &* 64 &+ onlyNew.trailingZeroBitCount)
        onlyNew &= onlyNew &- 1
      }
    }
    newBuckets.sort()
    return (oldBuckets, newBuckets)
  }

  /// Whether any occupied bucket of a block of 64 holds other bytes in the two arrays of keys,
  /// of one or two 8-byte words each, without padding: without a branch per bucket, so that
  /// the compiler can compare several buckets at once.
  private static func occupiedDiffer(
    _ old: UnsafeRawPointer, _ new: UnsafeRawPointer, words: Int, occupied: UInt64
  ) -> Bool {
    var difference: UInt64 = 0
    if words == 1 {
      for bucket in 0..<64 {
        let mask = 0 &- (occupied &>> UInt64(bucket) & 1)
        difference |=
          (old.loadUnaligned(fromByteOffset: bucket &* 8, as: UInt64.self)
            ^ new.loadUnaligned(fromByteOffset: bucket &* 8, as: UInt64.self)) & mask
      }
    } else {
      for bucket in 0..<64 {
        let mask = 0 &- (occupied &>> UInt64(bucket) & 1)
        let offset = bucket &* 16
        let first =
          old.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          ^ new.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let second =
          old.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
          ^ new.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
        difference |= (first | second) & mask
      }
    }
    return difference != 0
  }

  /// The key (a set's member) in `bucket`.
  func key<Key>(at bucket: Int, as _: Key.Type) -> Key {
    keys.advanced(by: bucket * MemoryLayout<Key>.stride).assumingMemoryBound(to: Key.self).pointee
  }

  /// The value in `bucket` of a dictionary's table.
  func value<Value>(at bucket: Int, as _: Value.Type) -> Value {
    values!.advanced(by: bucket * MemoryLayout<Value>.stride)
      .assumingMemoryBound(to: Value.self).pointee
  }
}
