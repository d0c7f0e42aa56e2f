import TraceJSON

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
