import Architecture
import Foundation
import Testing

@testable import PlainFeatures

/// Whether the session's root `State` or `Action` can be encoded or decoded.
private func isCodable<S: PlainSession>(_ session: S.Type) -> Bool {
  let types: [Any.Type] = [S.Feature.State.self, S.Feature.Action.self]
  return types.contains { $0 is any Encodable.Type || $0 is any Decodable.Type }
}

/// The corpus stays what issue 34 needs: features with no coding conformance anywhere.
@MainActor
@Suite("Plain corpus")
struct PlainCorpusTests {
  @Test("no source file of the features names Codable, Encodable or Decodable")
  func noCodingInSources() throws {
    let features = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Features")
    let paths = try FileManager.default.subpathsOfDirectory(atPath: features.path)
      .filter { $0.hasSuffix(".swift") }
    #expect(paths.count >= 30)
    for path in paths {
      let source = try String(contentsOf: features.appendingPathComponent(path), encoding: .utf8)
      for word in ["Codable", "Encodable", "Decodable"] {
        #expect(!source.contains(word), "\(path) names \(word)")
      }
    }
  }

  @Test("no root State or Action of a session conforms to Encodable or Decodable")
  func noConformances() {
    for session in PlainSessions.all {
      let name = session.name
      let codable = isCodable(session)
      #expect(!codable, "\(name)")
    }
  }
}
