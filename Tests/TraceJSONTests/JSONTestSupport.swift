import Architecture
@testable import TraceJSON

/// Parses JSON text written in a test.
func json(_ text: String) throws -> JSONValue {
  try JSONValue(parsing: text)
}

/// Makes random JSON documents and related pairs of documents for property tests.
struct RandomJSON {
  var generator: SplitMix64

  private static let keys = ["a", "b", "c", "id", "title", "a/b", "m~n", "", "ü", "~1"]
  private static let strings = ["", "x", "hello", "a/b", "~0", "line\nbreak", "é", "😀", "\"q\""]

  init(seed: UInt64) {
    generator = SplitMix64(seed: seed)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &generator)
  }

  mutating func chance(_ percent: Int) -> Bool {
    int(1...100) <= percent
  }

  mutating func scalar() -> JSONValue {
    switch int(0...9) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2, 3: return .integer(Int64(int(-3...3)))
    case 4: return .integer(chance(50) ? .max : .min)
    case 5: return .unsignedInteger(UInt64.max - UInt64(int(0...2)))
    case 6:
      let doubles: [Double] = [0.0, -0.0, 1.0, 0.1, -2.5, 1e300, .leastNonzeroMagnitude, 3.0]
      return .double(doubles[int(0...(doubles.count - 1))])
    default: return .string(Self.strings[int(0...(Self.strings.count - 1))])
    }
  }

  mutating func key() -> String {
    Self.keys[int(0...(Self.keys.count - 1))]
  }

  mutating func value(depth: Int) -> JSONValue {
    guard depth > 0, chance(55) else { return scalar() }
    switch int(0...2) {
    case 0:
      var object = JSONObject()
      for _ in 0..<int(0...4) { object[key()] = value(depth: depth - 1) }
      return .object(object)
    case 1:
      return .array((0..<int(0...5)).map { _ in value(depth: depth - 1) })
    default:
      return identifiedArray(depth: depth)
    }
  }

  /// An array of objects with unique `"id"` members, the shape diffed by identity.
  mutating func identifiedArray(depth: Int) -> JSONValue {
    let ids = Array(0..<12).shuffled(using: &generator).prefix(int(0...6))
    return .array(ids.map { identifiedElement(id: $0, depth: depth - 1) })
  }

  mutating func identifiedElement(id: Int, depth: Int) -> JSONValue {
    var object = JSONObject()
    object["id"] = chance(50) ? .integer(Int64(id)) : .string("id-\(id)")
    object["title"] = scalar()
    if depth > 0 && chance(40) { object["child"] = value(depth: depth - 1) }
    return .object(object)
  }

  /// A random edit of `value`: scalars changed, members added and removed, elements
  /// inserted, removed and reordered, and now and then a whole subtree replaced.
  mutating func mutate(_ value: JSONValue, depth: Int) -> JSONValue {
    if chance(8) { return self.value(depth: depth) }
    switch value {
    case .object(var object):
      for key in object.keys where chance(30) {
        object[key] = chance(25) ? nil : mutate(object[key]!, depth: depth - 1)
      }
      if chance(30) { object[key()] = self.value(depth: depth - 1) }
      return .object(object)
    case .array(var elements):
      for index in elements.indices where chance(30) {
        elements[index] = mutateElement(elements[index], depth: depth - 1)
      }
      if !elements.isEmpty && chance(30) { elements.remove(at: int(0...(elements.count - 1))) }
      if chance(30) {
        let fresh = elements.first?["id"] != nil
          ? identifiedElement(id: int(100...120), depth: depth - 1)
          : self.value(depth: depth - 1)
        elements.insert(fresh, at: int(0...elements.count))
      }
      if elements.count > 1 && chance(30) { elements.shuffle(using: &generator) }
      if elements.count > 1 && chance(20) {
        let moved = elements.remove(at: int(0...(elements.count - 1)))
        elements.insert(moved, at: int(0...elements.count))
      }
      return .array(elements)
    default:
      return chance(70) ? scalar() : value
    }
  }

  /// Mutates an array element, keeping its `"id"` (if any) so identity matching still applies.
  private mutating func mutateElement(_ element: JSONValue, depth: Int) -> JSONValue {
    guard case .object(let object) = element, let id = object["id"] else {
      return mutate(element, depth: depth)
    }
    guard case .object(var mutated) = mutate(element, depth: depth) else {
      return mutate(element, depth: depth)
    }
    mutated["id"] = id
    return .object(mutated)
  }
}
