#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The step line shapes one thread has learnt, as a tree: each edge is a run of bytes followed
/// by a hole (a number) or by the end of the line, so lines that share their first bytes share
/// the comparisons.
///
/// At most ``capacity`` shapes: past that the tree starts again, and a trace whose lines all
/// differ (strings that change, numbers inside actions) stops learning, so it costs little
/// more than the full scan.
final class StepLineShapes {
  private final class Node {
    var edges: [Edge] = []
  }

  private struct Edge {
    var literal: [UInt8]
    /// Where a hole follows the literal.
    var next: Node?
    /// Where the line ends after the literal.
    var shape: StepLineShape?
  }

  static let capacity = 64
  /// The most holes a shape has; a line with more numbers is not learnt.
  static let maximumHoles = 32

  private var root = Node()
  private var count = 0
  private var learnt = 0
  private var matched = 0

  /// The holes of the last line matched.
  let holes = UnsafeMutablePointer<Range<Int>>.allocate(capacity: StepLineShapes.maximumHoles)

  init() {}

  deinit { holes.deallocate() }

  /// Whether a line that did not match should be learnt: not when lines rarely repeat.
  var isLearning: Bool { learnt < 4 * Self.capacity || matched >= learnt }

  /// The shape of the line, with its holes in ``holes``; `nil` when no shape fits.
  func match(_ base: UnsafePointer<UInt8>, count: Int) -> StepLineShape? {
    var node = root
    var position = 0
    var holeCount = 0
    search: while true {
      for edge in node.edges {
        let length = edge.literal.count
        guard count - position >= length,
          edge.literal.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base + position, length) })
            == 0
        else { continue }
        let after = position + length
        if let shape = edge.shape {
          guard after == count else { continue }
          matched += 1
          return shape
        }
        // A hole: a number, as the full scan would check it.
        guard after < count, base[after] == UInt8(ascii: "-") || base[after] &- 0x30 < 10,
          holeCount < Self.maximumHoles,
          let end = StepLineScanner.numberEnd(base, from: after, count: count)
        else { continue }
        holes[holeCount] = after..<end
        holeCount += 1
        position = end
        node = edge.next!
        continue search
      }
      return nil
    }
  }

  /// Learns the shape of a line read and checked in full, whose holes are `holes`, in order.
  func learn(
    _ base: UnsafePointer<UInt8>, count: Int, holes: [Range<Int>], shape: StepLineShape
  ) {
    guard holes.count <= Self.maximumHoles else { return }
    if self.count >= Self.capacity {
      root = Node()
      self.count = 0
    }
    learnt += 1
    var node = root
    var position = 0
    for hole in holes {
      let literal = Array(UnsafeBufferPointer(start: base + position, count: hole.lowerBound - position))
      if let next = node.edges.first(where: { $0.next != nil && $0.literal == literal })?.next {
        node = next
      } else {
        let next = Node()
        node.edges.append(Edge(literal: literal, next: next, shape: nil))
        node = next
      }
      position = hole.upperBound
    }
    let literal = Array(UnsafeBufferPointer(start: base + position, count: count - position))
    guard !node.edges.contains(where: { $0.shape != nil && $0.literal == literal }) else { return }
    node.edges.append(Edge(literal: literal, next: nil, shape: shape))
    self.count += 1
  }
}
