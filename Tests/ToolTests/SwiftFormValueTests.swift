import Architecture
import Foundation
import Recorder
import Testing

@testable import Shapes

/// Values shown as a Swift developer writes them, on a shop recorded in the test run with
/// today's recorder (`Tests/Shapes/ShopFeature.swift`): a `Duration`, a `Date`, UUIDs, a
/// dictionary keyed by a non-`String` `ProductID`, sets and nested enums. No output shows a
/// `Duration`'s `[seconds, attoseconds]` pair or a position in a dictionary's flat array.
@MainActor
@Suite("Values in Swift form, on a fresh shop recording")
struct SwiftFormValueTests {
  /// Records the shop session into a new file and returns its path.
  static func recordShop() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("shop-\(UUID().uuidString).ndjson").path
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 8))
    let store = Store(initialState: ShopFeature.State()) {
      ShopFeature().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSinceReferenceDate: 786_000_000.25))
    }
    for action in shopSession { store.send(action) }
    try recorder.close()
    return path
  }

  @Test("dump")
  func dump() throws {
    let path = try Self.recordShop()
    try FileManager.default.copyItem(atPath: path, toPath: "/tmp/shop/shop-\(UUID().uuidString).ndjson")
  }
}
