import Architecture
import Testing

@Suite("unimplemented")
struct UnimplementedTests {
  struct NumberFactClient {
    var fetch: @Sendable (Int) async throws -> String
    var log: @Sendable (String) -> Void
    var count: @Sendable () async -> Int
    var isEnabled: @Sendable (Int, String) throws -> Bool
  }

  @Test("An async throwing endpoint reports where it was defined and its argument, then throws")
  func asyncThrowing() async {
    var client = NumberFactClient(
      fetch: { _ in "" }, log: { _ in }, count: { 0 }, isEnabled: { _, _ in true }
    )
    client.fetch = unimplemented("NumberFactClient.fetch")
    let line = #line - 1
    var thrown: (any Error)?
    let issues = await withIssueCapture {
      do { _ = try await client.fetch(42) } catch { thrown = error }
    }
    #expect(
      issues.map(\.message) == [
        """
        Unimplemented: NumberFactClient.fetch …

          Defined at:
            ArchitectureTests/UnimplementedTests.swift:\(line)

          Invoked with:
            42
        """
      ]
    )
    #expect(issues.first?.line == UInt(line))
    #expect(
      thrown as? UnimplementedFailure
        == UnimplementedFailure(description: "NumberFactClient.fetch")
    )
  }

  @Test("Non-throwing endpoints report and return their placeholder, or () without one")
  func placeholders() async {
    let client = NumberFactClient(
      fetch: unimplemented(),
      log: unimplemented("log"),
      count: unimplemented("count", placeholder: 7),
      isEnabled: XCTUnimplemented("isEnabled")
    )
    var count = 0
    let issues = await withIssueCapture {
      client.log("hello")
      count = await client.count()
      _ = try? client.isEnabled(1, "a")
    }
    #expect(count == 7)
    #expect(issues.count == 3)
    #expect(issues[0].message.hasPrefix("Unimplemented: log …"))
    #expect(issues[0].message.hasSuffix("Invoked with:\n    \"hello\""))
    #expect(issues[1].message.hasPrefix("Unimplemented: count …"))
    #expect(!issues[1].message.contains("Invoked with"))
    #expect(issues[2].message.hasSuffix("Invoked with:\n    (1, \"a\")"))
  }

  @Test("Without a description the report says only Unimplemented")
  func noDescription() {
    let closure: @Sendable () -> Void = unimplemented()
    let issues = withIssueCapture { closure() }
    #expect(issues.first?.message.hasPrefix("Unimplemented …\n\n  Defined at:") == true)
  }

  @Test("An unimplemented value reports at once and returns its placeholder")
  func value() {
    var value = 0
    let issues = withIssueCapture { value = unimplemented("Config.limit", placeholder: 3) }
    #expect(value == 3)
    #expect(issues.first?.message.hasPrefix("Unimplemented: Config.limit …") == true)
  }
}
