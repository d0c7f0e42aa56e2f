import Architecture
import Testing

/// App code that fails a test, as upstream's unimplemented fallbacks do.
private func loadFixture(named name: String) -> String? {
  XCTFail("No fixture named \(name)")
  return nil
}

@Suite("XCTFail from app code")
struct XCTFailTests {
  @Test("it reports an issue with its message, attributed to where it was called")
  func reportsAtCallSite() {
    let issues = withIssueCapture {
      #expect(loadFixture(named: "plants") == nil)
    }
    #expect(issues.map(\.message) == ["No fixture named plants"])
    #expect(issues.first?.fileID == "ArchitectureTests/XCTFailTests.swift")
    #expect(issues.first?.line == 6)
  }
}
