import Architecture
import Testing

@testable import TraceJSON

@Suite("JSONValue and JSONObject")
struct JSONValueTests {
  @Test("Objects keep insertion order; replacing a value keeps its position")
  func insertionOrder() {
    var object: JSONObject = ["z": 1, "a": 2, "m": 3]
    #expect(object.keys == ["z", "a", "m"])
    object["a"] = "two"
    object["b"] = nil
    object["c"] = true
    #expect(object.keys == ["z", "a", "m", "c"])
    #expect(object["a"] == "two")
    #expect(object.removeValue(forKey: "z") == 1)
    #expect(object.removeValue(forKey: "z") == nil)
    object["a"] = nil
    #expect(object.keys == ["m", "c"])
    #expect(object.map(\.key) == ["m", "c"])
    #expect(object.values == [3, true])
    #expect(JSONValue.object(object).jsonString == #"{"m":3,"c":true}"#)
  }

  @Test("Large objects stay correct through inserts, replacements and removals")
  func largeObjectIndex() {
    var object = JSONObject()
    var reference: [String: Int] = [:]
    var order: [String] = []
    var random = SplitMix64(seed: 7)
    for step in 0..<4000 {
      let key = "k\(Int.random(in: 0..<300, using: &random))"
      if step % 3 == 0 {
        object[key] = nil
        reference[key] = nil
        order.removeAll { $0 == key }
      } else {
        object[key] = .integer(Int64(step))
        if reference.updateValue(step, forKey: key) == nil { order.append(key) }
      }
    }
    #expect(object.count == reference.count)
    #expect(object.keys == order)
    for (key, value) in reference {
      #expect(object[key] == .integer(Int64(value)))
    }
    #expect(object["absent"] == nil)
  }

  @Test("A repeated literal key keeps its first position and last value")
  func repeatedLiteralKey() {
    let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
    #expect(object.keys == ["a", "b"])
    #expect(object["a"] == 3)
  }

  @Test("Equality ignores member order but not content")
  func objectEquality() {
    let a: JSONValue = ["x": 1, "y": ["p": [1, 2], "q": nil]]
    let b: JSONValue = ["y": ["q": nil, "p": [1, 2]], "x": 1]
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a != ["x": 1, "y": ["p": [2, 1], "q": nil]])
    #expect(a != ["x": 1])
    #expect(a != ["x": 1, "y": ["p": [1, 2], "r": nil]])
    #expect(JSONValue.object(["a": 1]) != ["a": 1, "b": 1])
  }

  @Test("Numbers compare by value across integer, unsigned and double cases")
  func numericEquality() {
    let pairs: [(JSONValue, JSONValue)] = [
      (.integer(1), .double(1.0)),
      (.integer(0), .double(-0.0)),
      (.unsignedInteger(UInt64(Int64.max) + 1), .double(9_223_372_036_854_775_808.0)),
      (.unsignedInteger(5), .integer(5)),
      (.double(.nan), .double(.nan)),
    ]
    for (a, b) in pairs {
      #expect(a == b, "\(a) == \(b)")
      #expect(a.hashValue == b.hashValue, "hash \(a) \(b)")
    }
    let different: [(JSONValue, JSONValue)] = [
      (.integer(1), .double(1.5)),
      (.integer(9_007_199_254_740_993), .double(9_007_199_254_740_992.0)),
      (.unsignedInteger(.max), .integer(-1)),
      (.integer(1), .string("1")),
      (.bool(true), .integer(1)),
      (.null, .bool(false)),
    ]
    for (a, b) in different {
      #expect(a != b, "\(a) != \(b)")
    }
  }

  @Test("isIdentical distinguishes representation: 1 vs 1.0 and 0.0 vs -0.0")
  func identity() {
    #expect(!JSONValue.integer(1).isIdentical(to: .double(1)))
    #expect(!JSONValue.double(0).isIdentical(to: .double(-0.0)))
    #expect(JSONValue.double(.nan).isIdentical(to: .double(.nan)))
    let a: JSONValue = ["x": [1, ["y": 2.5]], "z": "s"]
    let b: JSONValue = ["z": "s", "x": [1, ["y": 2.5]]]
    #expect(a.isIdentical(to: b))
    #expect(!a.isIdentical(to: ["z": "s", "x": [1.0, ["y": 2.5]]]))
  }

  @Test("number(_:) uses the integer case for values that fit Int64")
  func unsignedNormalisation() {
    #expect(JSONValue.number(5) == .integer(5))
    if case .integer = JSONValue.number(UInt64(Int64.max)) {} else { Issue.record("not integer") }
    if case .unsignedInteger(let value) = JSONValue.number(.max) {
      #expect(value == .max)
    } else {
      Issue.record("not unsignedInteger")
    }
  }

  @Test("Accessors return values only for the matching type")
  func accessors() {
    let value: JSONValue = ["s": "x", "n": 2.0, "a": [true], "o": [:], "z": nil]
    #expect(value["s"]?.stringValue == "x")
    #expect(value["n"]?.int64Value == 2)
    #expect(value["n"]?.doubleValue == 2.0)
    #expect(value["a"]?[0]?.boolValue == true)
    #expect(value["a"]?[1] == nil)
    #expect(value["o"]?.objectValue?.isEmpty == true)
    #expect(value["z"]?.isNull == true)
    #expect(value["s"]?.int64Value == nil)
    #expect(value["missing"] == nil)
    #expect(value["a"]?.typeName == "array")
    #expect(value.typeName == "object")
  }
}
