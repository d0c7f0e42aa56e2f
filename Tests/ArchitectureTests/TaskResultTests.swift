import Architecture
import Foundation
import Testing

@Suite("TaskResult")
struct TaskResultTests {
  struct EquatableFailure: Error, Equatable, Codable {
    var code: Int
  }
  struct PlainFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { "failed: \(reason)" }
  }
  struct OtherPlainFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { "failed: \(reason)" }
  }
  /// Equal whatever its note says: equality must use the error's own `==`.
  struct LenientFailure: Error, Equatable {
    var note: String
    static func == (lhs: Self, rhs: Self) -> Bool { true }
  }

  @Test("init(catching:) captures the value returned or the error thrown")
  func catching() async throws {
    let success = await TaskResult { 42 }
    #expect(try success.value == 42)
    let failure = await TaskResult<Int> { throw EquatableFailure(code: 1) }
    #expect(throws: EquatableFailure(code: 1)) { try failure.value }
  }

  @Test("map and flatMap transform successes and keep failures")
  func mapping() {
    #expect(TaskResult<Int>.success(2).map { $0 * 10 } == .success(20))
    let flatMapped = TaskResult<Int>.success(2).flatMap { _ -> TaskResult<Int> in
      .failure(EquatableFailure(code: 2))
    }
    #expect(flatMapped == .failure(EquatableFailure(code: 2)))
    #expect(TaskResult<Int>.failure(EquatableFailure(code: 3)).map { $0 * 10 }
      == .failure(EquatableFailure(code: 3)))
  }

  @Test("Equatable errors compare with their own ==, not their descriptions")
  func equatableErrors() {
    let one = TaskResult<Int>.failure(EquatableFailure(code: 1))
    #expect(one == .failure(EquatableFailure(code: 1)))
    #expect(one != .failure(EquatableFailure(code: 2)))
    #expect(
      TaskResult<Int>.failure(LenientFailure(note: "a")) == .failure(LenientFailure(note: "b"))
    )
  }

  @Test("Errors that are not Equatable compare by type and description")
  func plainErrors() {
    let x = TaskResult<Int>.failure(PlainFailure(reason: "x"))
    #expect(x == .failure(PlainFailure(reason: "x")))
    #expect(x != .failure(PlainFailure(reason: "y")))
    #expect(x != .failure(OtherPlainFailure(reason: "x")))
    #expect(x != .success(1))
  }

  @Test("Equal results hash equally, including a recorded failure and the live one")
  func hashing() throws {
    let live = TaskResult<Int>.failure(LenientFailure(note: "a"))
    #expect(live.hashValue == TaskResult<Int>.failure(LenientFailure(note: "b")).hashValue)
    let recorded = try roundTrip(TaskResult<Int>.failure(PlainFailure(reason: "x")))
    #expect(Set([recorded, .failure(PlainFailure(reason: "x"))]).count == 1)
  }

  @Test("A success round-trips through JSON as {\"success\": value}")
  func successCoding() throws {
    let data = try JSONEncoder().encode(TaskResult<String>.success("0 is a good number."))
    #expect(String(decoding: data, as: UTF8.self) == #"{"success":"0 is a good number."}"#)
    #expect(try roundTrip(TaskResult<String>.success("fact")) == .success("fact"))
  }

  @Test("A decoded failure keeps the type name and description, and equals the live error")
  func failureCoding() throws {
    let live = TaskResult<String>.failure(PlainFailure(reason: "offline"))
    let decoded = try roundTrip(live)
    guard case .failure(let error) = decoded else {
      Issue.record("Expected a failure, got \(decoded)")
      return
    }
    let recorded = try #require(error as? RecordedError)
    #expect(recorded.typeName == "TaskResultTests.PlainFailure")
    #expect(recorded.description == "failed: offline")
    #expect(decoded == live)
    #expect(live == decoded)
    #expect(decoded != .failure(PlainFailure(reason: "timeout")))
    #expect(decoded != .failure(OtherPlainFailure(reason: "offline")))
  }

  @Test("An Encodable error's value is recorded, and re-encoding a decoded failure is stable")
  func encodableErrorCoding() throws {
    let live = TaskResult<Int>.failure(EquatableFailure(code: 7))
    let first = try JSONEncoder().encode(live)
    let json = try #require(
      JSONSerialization.jsonObject(with: first) as? [String: [String: Any]]
    )
    #expect(json["failure"]?["type"] as? String == "TaskResultTests.EquatableFailure")
    #expect((json["failure"]?["value"] as? [String: Any])?["code"] as? Int == 7)
    let decoded = try JSONDecoder().decode(TaskResult<Int>.self, from: first)
    #expect(decoded == live)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(try encoder.encode(decoded) == encoder.encode(live))
  }

  private func roundTrip<T: Sendable & Codable>(_ result: TaskResult<T>) throws -> TaskResult<T> {
    try JSONDecoder().decode(TaskResult<T>.self, from: JSONEncoder().encode(result))
  }
}
