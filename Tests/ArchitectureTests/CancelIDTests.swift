import Testing

@testable import Architecture

@Suite("Cancellation ids")
struct CancelIDTests {
  struct Plain: Hashable, Sendable {
    var value: Int
  }
  enum Kind: Hashable, Sendable {
    case save, sort
  }
  class Base: Hashable, @unchecked Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
    static func == (lhs: Base, rhs: Base) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
  }
  final class Derived: Base, @unchecked Sendable {}

  /// Ids of many kinds: plain structs and enums, numbers that `AnyHashable` compares across
  /// widths, optionals it unwraps, classes it compares as their hashable base class, strings,
  /// arrays.
  static let ids: [any Hashable & Sendable] = [
    Plain(value: 1), Plain(value: 2), Kind.save, Kind.sort, 1, 2, Int8(1), UInt(2), 1.0,
    Optional(1), Optional(Plain(value: 1)), Optional<Int>.none, "save", Substring("save"),
    Base(1), Derived(1), Derived(2), [1, 2],
  ]

  @Test("ids are equal, and hash alike, exactly when AnyHashable says they are equal")
  func matchesAnyHashable() {
    for left in Self.ids {
      for right in Self.ids {
        let expected = AnyHashable(left) == AnyHashable(right)
        let (leftID, rightID) = (AnyHashableSendable(left), AnyHashableSendable(right))
        #expect(
          (leftID == rightID) == expected, "\(left) == \(right) should be \(expected)")
        if expected {
          #expect(leftID.hashValue == rightID.hashValue, "\(left) and \(right) should hash alike")
        }
      }
    }
  }
}
