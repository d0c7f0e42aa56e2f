#if canImport(Glibc)
  import Glibc
#endif

/// Wildcard matching, `*` for any run and `?` for one element, without backing up: each
/// element of the label is passed over once per piece of the pattern at most.
///
/// The pattern is cut at its stars into pieces. The first piece must start the label and the
/// last must end it; each piece between is found at its leftmost place after the one before.
/// Leftmost is never worse, since a later place leaves less label to the pieces after it, so
/// nothing is tried twice. A piece without `?` in a byte label is found by `memchr` and `memcmp`.
enum Glob {
  /// Whether the bytes of `label` match the bytes of `pattern` whole; `steps` counts the
  /// bytes compared one by one (`memchr`'s and `memcmp`'s are not counted).
  static func matches(
    _ pattern: UnsafeBufferPointer<UInt8>, _ label: UnsafeBufferPointer<UInt8>,
    steps: inout Int
  ) -> Bool {
    let one = UInt8(ascii: "?")
    return matches(
      pieces(of: pattern, at: UInt8(ascii: "*")), count: pattern.count, label.count,
      fits: { piece, position in
        var offset = position
        for byte in piece {
          steps += 1
          if byte != one, byte != label[offset] { return false }
          offset += 1
        }
        return true
      },
      find: { piece, from, to in
        guard !piece.contains(one), let base = label.baseAddress else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: piece)
        // Each place holding the piece's first byte, by memchr, then the rest by memcmp.
        var position = from
        while position + bytes.count <= to {
          guard let hit = memchr(base + position, Int32(bytes[0]), to - bytes.count + 1 - position)
          else { return .some(nil) }
          let at = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
          if memcmp(base + at, bytes.baseAddress!, bytes.count) == 0 { return at }
          position = at + 1
        }
        return .some(nil)
      })
  }

  /// Whether `label` matches `pattern` whole, element by element: for labels that are not
  /// printable ASCII, where `?` is one `Character`.
  static func matches<Element: Equatable>(
    _ pattern: [Element], _ label: [Element], any: Element, one: Element, steps: inout Int
  ) -> Bool {
    matches(
      pieces(of: pattern, at: any), count: pattern.count, label.count,
      fits: { piece, position in
        var offset = position
        for element in piece {
          steps += 1
          if element != one, element != label[offset] { return false }
          offset += 1
        }
        return true
      },
      find: { _, _, _ in nil })
  }

  private static func pieces<C: Collection>(of pattern: C, at star: C.Element) -> [C.SubSequence]
  where C.Element: Equatable {
    pattern.split(separator: star, omittingEmptySubsequences: false)
  }

  /// The matching itself: `fits(piece, position)` compares a piece with the label there;
  /// `find(piece, from, to)` finds it faster when it can (`.some(nil)`: nowhere), or is `nil`.
  private static func matches<Piece: Collection>(
    _ pieces: [Piece], count: Int, _ labelCount: Int,
    fits: (Piece, Int) -> Bool, find: (Piece, Int, Int) -> Int??
  ) -> Bool {
    guard pieces.count > 1 else { return labelCount == count && fits(pieces[0], 0) }
    let (first, last) = (pieces[0], pieces[pieces.count - 1])
    guard labelCount >= first.count + last.count, fits(first, 0),
      fits(last, labelCount - last.count)
    else { return false }
    var position = first.count
    let limit = labelCount - last.count
    for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
      guard position + piece.count <= limit else { return false }
      var found: Int?
      if let fast = find(piece, position, limit) {
        found = fast
      } else {
        var candidate = position
        while candidate + piece.count <= limit {
          if fits(piece, candidate) {
            found = candidate
            break
          }
          candidate += 1
        }
      }
      guard let found else { return false }
      position = found + piece.count
    }
    return true
  }
}
