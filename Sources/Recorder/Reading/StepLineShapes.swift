import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a step line holds apart from its numbers: a step line `StepLineScanner` read and
/// checked in full, with the numbers of its index, time, cause, effects and patch values left
/// out as holes.
///
/// A trace's lines repeat a few shapes (the counter's `incrementButtonTapped` line differs from
/// the last one only in its numbers), so a line with a known shape is read by comparing its
/// bytes with the shape's and reading the numbers in its holes: no syntax check, no patch read,
/// no label decoded. It is exactly as strict: every byte outside the holes is the checked
/// line's, and each hole holds a number by the scanner's own rule (`numberEnd`), read by the
/// same functions, so the line is valid JSON with the same members, and whatever a hole's
/// number does not suit (a negative index, an effect number out of range) leaves the line to
/// the full scan.
final class StepLineShape {
  /// The hole holding the index.
  let indexHole: Int
  /// The hole holding the time.
  let timeHole: Int
  /// The origin; with `causeHole`, the cause is read from that hole.
  let origin: TraceStep.Origin
  let causeHole: Int?
  /// The label, decoded.
  let label: String
  let isReplayable: Bool
  /// The holes holding the effects, in order.
  let effectHoles: [Int]
  /// The patch, its values as the checked line had them.
  let operations: [JSONPatch.Operation]
  /// The operations whose value is a number, and the hole holding it.
  let valueHoles: [(operation: Int, hole: Int)]
  /// The patch as changes to members of the top-level object, when every operation is a
  /// `test`, `replace`, `add` or `remove` of one: applied without building the patch.
  let memberOperations: [MemberOperation]?
  /// The parts of its `log --json` listing the shape fixes: see ``StepListing``.
  let listingMiddle: [UInt8]
  let listingTail: [UInt8]

  init(
    indexHole: Int, timeHole: Int, origin: TraceStep.Origin, causeHole: Int?, label: String,
    isReplayable: Bool, effectHoles: [Int], operations: [JSONPatch.Operation],
    valueHoles: [(operation: Int, hole: Int)], listingMiddle: [UInt8], listingTail: [UInt8]
  ) {
    self.indexHole = indexHole
    self.timeHole = timeHole
    self.origin = origin
    self.causeHole = causeHole
    self.label = label
    self.isReplayable = isReplayable
    self.effectHoles = effectHoles
    self.operations = operations
    self.valueHoles = valueHoles
    var members: [MemberOperation]? = []
    for (position, operation) in operations.enumerated() {
      let hole = valueHoles.first { $0.operation == position }?.hole ?? -1
      guard let member = MemberOperation(operation, hole: hole) else {
        members = nil
        break
      }
      members!.append(member)
    }
    memberOperations = members
    self.listingMiddle = listingMiddle
    self.listingTail = listingTail
  }

  /// `operation` with `value` in place of its value.
  static func operation(_ operation: JSONPatch.Operation, with value: JSONValue)
    -> JSONPatch.Operation
  {
    switch operation {
    case .replace(let path, _): .replace(path: path, value: value)
    case .test(let path, _): .test(path: path, value: value)
    case .add(let path, _): .add(path: path, value: value)
    default: operation
    }
  }
}

/// A patch operation on one member of the top-level object, as `JSONPatch` applies it there.
struct MemberOperation {
  enum Kind { case test, replace, add, remove }
  let kind: Kind
  let key: String
  /// The value, unless `hole` holds it.
  let value: JSONValue
  /// The hole holding the value; -1 for none.
  let hole: Int

  init?(_ operation: JSONPatch.Operation, hole: Int) {
    let path: JSONPointer
    switch operation {
    case .test(let at, let value): (kind, path, self.value) = (.test, at, value)
    case .replace(let at, let value): (kind, path, self.value) = (.replace, at, value)
    case .add(let at, let value): (kind, path, self.value) = (.add, at, value)
    case .remove(let at): (kind, path, self.value) = (.remove, at, .null)
    default: return nil
    }
    guard path.tokens.count == 1 else { return nil }
    key = path.tokens[0]
    self.hole = hole
  }

  /// Applies the operation to `object` as `JSONPatch` applies it to an object; `false` where
  /// that fails.
  func apply(_ value: JSONValue, to object: inout JSONObject) -> Bool {
    switch kind {
    case .test:
      return object[key] == value
    case .replace:
      guard let position = object.position(ofKey: key) else { return false }
      object.modifyValue(at: position) { $0 = value }
      return true
    case .add:
      object[key] = value
      return true
    case .remove:
      return object.removeValue(forKey: key) != nil
    }
  }
}

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

extension StepLineScanner {
  /// The step on a line of a learnt shape whose patch changes only members of the top-level
  /// object, read without building the patch: ``applyMembers(_:to:)`` applies it. `nil` for
  /// anything else, which ``scan(_:labels:json:pointers:)`` reads.
  static func scanShape(
    _ bytes: UnsafeBufferPointer<UInt8>, labels: Bool, json: Bool, pointers: PointerCache
  ) -> (ScannedStep, StepLineShape, StepLineScanner)? {
    guard bytes.count > 2, let start = bytes.baseAddress,
      let shape = pointers.shapes.match(start, count: bytes.count),
      shape.memberOperations != nil
    else { return nil }
    let scanner = StepLineScanner(bytes, keys: pointers.keys)
    guard
      let step = scanner.fields(shape, holes: pointers.shapes.holes, labels: labels, json: json)
    else { return nil }
    return (step, shape, scanner)
  }

  /// Applies the patch of a line ``scanShape(_:labels:json:pointers:)`` read, its values in
  /// `holes`, as `JSONPatch` applies it; `false` where that fails or does not apply it so
  /// (a state that is not an object, a value the full scan does not read).
  func applyMembers(
    _ shape: StepLineShape, holes: UnsafeMutablePointer<Range<Int>>, to state: inout JSONValue
  ) -> Bool {
    guard let operations = shape.memberOperations else { return false }
    return state.modifyObject { object in
      for operation in operations {
        var value = operation.value
        if operation.hole >= 0 {
          guard let read = self.value(holes[operation.hole]) else { return false }
          value = read
        }
        guard operation.apply(value, to: &object) else { return false }
      }
      return true
    } ?? false
  }

  /// The members of a step on a line that matched `shape`, all but the patch.
  func fields(
    _ shape: StepLineShape, holes: UnsafeMutablePointer<Range<Int>>, labels: Bool, json: Bool
  ) -> ScannedStep? {
    guard let index = countValue(holes[shape.indexHole]),
      let time = number(holes[shape.timeHole])
    else { return nil }
    var origin = shape.origin
    if let hole = shape.causeHole {
      guard let cause = countValue(holes[hole]) else { return nil }
      origin = .effect(cause: cause)
    }
    var effects: [Int] = []
    if !shape.effectHoles.isEmpty {
      effects.reserveCapacity(shape.effectHoles.count)
      for hole in shape.effectHoles {
        guard let effect = countValue(holes[hole]), effect <= maximumTraceNumber else {
          return nil
        }
        effects.append(effect)
      }
    }
    var step = ScannedStep(
      index: index, time: time, origin: origin, label: labels ? shape.label : "",
      effects: effects, isReplayable: shape.isReplayable)
    if json {
      step.listingMiddle = shape.listingMiddle
      step.listingTail = shape.listingTail
    }
    return step
  }

  /// The step on a line that matched `shape`, its numbers in `holes`, read with the functions
  /// the full scan reads them with; `nil` when a number does not suit, for the full scan.
  func step(
    _ shape: StepLineShape, holes: UnsafeMutablePointer<Range<Int>>, labels: Bool, json: Bool
  ) -> (ScannedStep, JSONPatch)? {
    guard let step = fields(shape, holes: holes, labels: labels, json: json) else { return nil }
    var operations = shape.operations
    if !shape.valueHoles.isEmpty {
      // Made anew rather than copied and changed: the shape keeps its own.
      operations = []
      operations.reserveCapacity(shape.operations.count)
      var next = 0
      for (position, operation) in shape.operations.enumerated() {
        guard next < shape.valueHoles.count, shape.valueHoles[next].operation == position else {
          operations.append(operation)
          continue
        }
        guard let value = value(holes[shape.valueHoles[next].hole]) else { return nil }
        operations.append(StepLineShape.operation(operation, with: value))
        next += 1
      }
    }
    return (step, JSONPatch(operations))
  }

  /// Learns the shape of this line, read in full as `step` and `patch`.
  func learn(
    _ step: ScannedStep, _ patch: JSONPatch, label: String, middle: [UInt8], tail: [UInt8],
    pointers: PointerCache
  ) {
    var holes: [Range<Int>] = [range(.index), range(.time)]
    // A cause counts only beside an effect's action: beside a sent one the parser ignores it.
    let causeIsNumber = step.origin != .send && has(.cause) && !equals(range(.cause), "null")
    if causeIsNumber { holes.append(range(.cause)) }
    if has(.effects) {
      var offset = range(.effects).lowerBound
      while offset < range(.effects).upperBound {
        if base[offset] &- UInt8(ascii: "0") < 10 {
          guard let end = Self.numberEnd(base, from: offset, count: count) else { return }
          holes.append(offset..<end)
          offset = end
        } else {
          offset += 1
        }
      }
    }
    let values = pointers.operationValues
    guard values.count == patch.operations.count else { return }
    var numbered: [(operation: Int, range: Range<Int>)] = []
    for (operation, value) in values.enumerated() {
      guard let value, base[value.lowerBound] == UInt8(ascii: "-")
        || base[value.lowerBound] &- UInt8(ascii: "0") < 10
      else { continue }
      numbered.append((operation, value))
      holes.append(value)
    }
    // A line with more numbers than a shape holds is never learnt. Numbering them anyway, a
    // search of the holes for each, was quadratic in a patch's length.
    guard holes.count <= StepLineShapes.maximumHoles else { return }
    holes.sort { $0.lowerBound < $1.lowerBound }
    let effects = has(.effects) ? range(.effects) : 0..<0
    func hole(_ range: Range<Int>) -> Int {
      pointers.holeLookups += 1
      return holes.firstIndex { $0 == range }!
    }
    let shape = StepLineShape(
      indexHole: hole(range(.index)), timeHole: hole(range(.time)),
      origin: causeIsNumber ? .effect(cause: nil) : step.origin,
      causeHole: causeIsNumber ? hole(range(.cause)) : nil, label: label,
      isReplayable: step.isReplayable,
      effectHoles: holes.indices.filter { effects.contains(holes[$0].lowerBound) },
      operations: patch.operations,
      valueHoles: numbered.map { ($0.operation, hole($0.range)) },
      listingMiddle: middle, listingTail: tail)
    pointers.shapes.learn(base, count: count, holes: holes, shape: shape)
  }

  /// The parts of this line's `log --json` listing that are not numbers: see ``StepListing``.
  /// Text the writer would write the same way is copied; anything else is parsed and written.
  func listingParts(label: String) -> (middle: [UInt8], tail: [UInt8])? {
    var middle: [UInt8] = []
    append(#","action":"#, to: &middle)
    let action = range(.action)
    if isCanonical(action) {
      middle.append(contentsOf: UnsafeBufferPointer(start: base + action.lowerBound, count: action.count))
    } else {
      guard let value = parse(action) else { return nil }
      JSONTextWriter.writeCompact(value, to: &middle)
    }
    append(#","label":"#, to: &middle)
    JSONTextWriter.appendString(label, to: &middle)
    var names: [[String]] = []
    for member in [Member.cancels, .cancellable] {
      guard has(member) else {
        names.append([])
        continue
      }
      guard case .array(let elements)? = parse(range(member)) else { return nil }
      names.append(elements.compactMap(\.stringValue))
    }
    let tail = StepListing.tail(
      cancels: names[0], cancellable: names[1], isReplayable: !equals(action, "null"))
    return (middle, tail)
  }

  /// Whether the JSON value in `range`, already checked, is written by `JSONTextWriter` as
  /// these very bytes: no whitespace, strings of printable ASCII with no escape but `\"` and
  /// `\\`, and integers of at most 18 digits other than `-0`.
  func isCanonical(_ range: Range<Int>) -> Bool {
    var offset = range.lowerBound
    while offset < range.upperBound {
      let byte = base[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        while base[offset] != UInt8(ascii: "\"") {
          let inner = base[offset]
          if inner == UInt8(ascii: "\\") {
            let escaped = base[offset + 1]
            guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else {
              return false
            }
            offset += 2
          } else {
            guard inner >= 0x20, inner < 0x7F else { return false }
            offset += 1
          }
        }
        offset += 1
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        let start = offset
        if byte == UInt8(ascii: "-") { offset += 1 }
        while offset < range.upperBound, base[offset] &- UInt8(ascii: "0") < 10 { offset += 1 }
        let digits = offset - start - (byte == UInt8(ascii: "-") ? 1 : 0)
        guard digits <= 18 else { return false }
        if byte == UInt8(ascii: "-"), digits == 1, base[start + 1] == UInt8(ascii: "0") {
          return false
        }
        if offset < range.upperBound {
          let next = base[offset]
          guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") else { return false }
        }
      case UInt8(ascii: " "), 0x09, 0x0A, 0x0D:
        return false
      default:
        offset += 1
      }
    }
    return true
  }

  private func append(_ text: StaticString, to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}
