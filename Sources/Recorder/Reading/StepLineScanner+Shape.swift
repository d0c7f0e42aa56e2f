import TraceJSON

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
