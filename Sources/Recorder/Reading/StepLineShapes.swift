#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The step line shapes one thread has learnt, as a tree: each edge is a run of bytes followed
/// by a hole (a number) or by the end of the line, so lines that share their first bytes share
/// the comparisons.
///
/// Kept in fixed buffers, so matching a line touches no reference count: at most
/// ``capacity`` shapes and ``byteCapacity`` bytes of them. Past that the tree starts again,
/// and a trace whose lines rarely repeat (strings that change, numbers inside actions) stops
/// learning, so it costs little more than the full scan.
///
/// Fast path of `StepLineScanner`; `StepLineShapeTests.hostileBytes` keeps them equal.
final class StepLineShapes {
  private struct Edge {
    var literalStart: Int
    var literalCount: Int
    /// The node after the hole that follows the literal; -1 when the line ends after it.
    var child: Int
    /// The shape of a line that ends after the literal; -1 when a hole follows.
    var shape: Int
    /// The next edge from the same node; -1 for the last.
    var sibling: Int
  }

  private struct Counts {
    var bytes = 0
    var edges = 0
    var nodes = 1
    var shapes = 0
    var learnt = 0
    var matched = 0
  }

  static let capacity = 64
  static let byteCapacity = 1 << 18
  /// The most holes a shape has; a line with more numbers is not learnt.
  static let maximumHoles = 32
  private static let edgeCapacity = capacity * (maximumHoles + 1)

  private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: StepLineShapes.byteCapacity)
  private let edges = UnsafeMutablePointer<Edge>.allocate(capacity: StepLineShapes.edgeCapacity)
  /// Each node's first edge; -1 for none.
  private let firstEdges = UnsafeMutablePointer<Int>.allocate(
    capacity: StepLineShapes.edgeCapacity + 1)
  private let shapes = UnsafeMutablePointer<StepLineShape?>.allocate(
    capacity: StepLineShapes.capacity)
  private let counts = UnsafeMutablePointer<Counts>.allocate(capacity: 1)
  /// The holes of the last line matched.
  let holes = UnsafeMutablePointer<Range<Int>>.allocate(capacity: StepLineShapes.maximumHoles)

  init() {
    shapes.initialize(repeating: nil, count: Self.capacity)
    counts.initialize(to: Counts())
    firstEdges[0] = -1
  }

  deinit {
    shapes.deinitialize(count: Self.capacity)
    for pointer in [UnsafeMutableRawPointer(bytes), UnsafeMutableRawPointer(edges),
      UnsafeMutableRawPointer(firstEdges), UnsafeMutableRawPointer(shapes),
      UnsafeMutableRawPointer(counts), UnsafeMutableRawPointer(holes)]
    {
      pointer.deallocate()
    }
  }

  /// Whether a line that did not match should be learnt: not when lines rarely repeat.
  var isLearning: Bool {
    counts.pointee.learnt < 4 * Self.capacity || counts.pointee.matched >= counts.pointee.learnt
  }

  /// The shape of the line, with its holes in ``holes``; `nil` when no shape fits.
  func match(_ base: UnsafePointer<UInt8>, count: Int) -> StepLineShape? {
    var position = 0
    var holeCount = 0
    var next = firstEdges[0]
    while next >= 0 {
      let edge = edges[next]
      next = edge.sibling
      let length = edge.literalCount
      guard count - position >= length,
        memcmp(bytes + edge.literalStart, base + position, length) == 0
      else { continue }
      let after = position + length
      if edge.shape >= 0 {
        guard after == count else { continue }
        counts.pointee.matched += 1
        return shapes[edge.shape]
      }
      // A hole: a number, as the full scan would check it.
      guard after < count, base[after] == UInt8(ascii: "-") || base[after] &- 0x30 < 10,
        holeCount < Self.maximumHoles,
        let end = StepLineScanner.numberEnd(base, from: after, count: count)
      else { continue }
      holes[holeCount] = after..<end
      holeCount += 1
      position = end
      next = firstEdges[edge.child]
    }
    return nil
  }

  /// Learns the shape of a line read and checked in full, whose holes are `holes`, in order.
  func learn(
    _ base: UnsafePointer<UInt8>, count: Int, holes: [Range<Int>], shape: StepLineShape
  ) {
    guard holes.count <= Self.maximumHoles, count <= Self.byteCapacity else { return }
    counts.pointee.learnt += 1
    if counts.pointee.shapes == Self.capacity
      || counts.pointee.bytes + count > Self.byteCapacity
    {
      // Start again.
      for index in 0..<counts.pointee.shapes { shapes[index] = nil }
      counts.pointee = Counts(learnt: counts.pointee.learnt, matched: counts.pointee.matched)
      firstEdges[0] = -1
    }
    var node = 0
    var position = 0
    for hole in holes {
      let start = base + position
      let length = hole.lowerBound - position
      node = child(of: node, literal: start, length) ?? addEdge(from: node, start, length, shape: -1)
      position = hole.upperBound
    }
    let start = base + position
    let length = count - position
    var edge = firstEdges[node]
    while edge >= 0 {
      if edges[edge].shape >= 0, edges[edge].literalCount == length,
        memcmp(bytes + edges[edge].literalStart, start, length) == 0
      {
        return
      }
      edge = edges[edge].sibling
    }
    shapes[counts.pointee.shapes] = shape
    _ = addEdge(from: node, start, length, shape: counts.pointee.shapes)
    counts.pointee.shapes += 1
  }

  /// The node after the hole edge from `node` with this literal, if there is one.
  private func child(of node: Int, literal: UnsafePointer<UInt8>, _ length: Int) -> Int? {
    var edge = firstEdges[node]
    while edge >= 0 {
      if edges[edge].child >= 0, edges[edge].literalCount == length,
        memcmp(bytes + edges[edge].literalStart, literal, length) == 0
      {
        return edges[edge].child
      }
      edge = edges[edge].sibling
    }
    return nil
  }

  /// Adds an edge from `node`, last among its siblings; returns the node after it, or -1.
  private func addEdge(
    from node: Int, _ literal: UnsafePointer<UInt8>, _ length: Int, shape: Int
  ) -> Int {
    let start = counts.pointee.bytes
    (bytes + start).update(from: literal, count: length)
    counts.pointee.bytes += length
    var child = -1
    if shape < 0 {
      child = counts.pointee.nodes
      firstEdges[child] = -1
      counts.pointee.nodes += 1
    }
    let index = counts.pointee.edges
    edges[index] = Edge(
      literalStart: start, literalCount: length, child: child, shape: shape, sibling: -1)
    counts.pointee.edges += 1
    if firstEdges[node] < 0 {
      firstEdges[node] = index
    } else {
      var last = firstEdges[node]
      while edges[last].sibling >= 0 { last = edges[last].sibling }
      edges[last].sibling = index
    }
    return child
  }
}
