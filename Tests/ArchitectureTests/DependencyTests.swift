import Architecture
import Foundation
import Testing

private struct NumberClient: DependencyKey, Sendable {
  var fetch: @Sendable (Int) -> String
  static let liveValue = NumberClient { "live \($0)" }
}

private struct GreetingClient: TestDependencyKey, Sendable {
  var greet: @Sendable () -> String
  static let testValue = GreetingClient { "hello from tests" }
}

extension DependencyValues {
  fileprivate var numberClient: NumberClient {
    get { self[NumberClient.self] }
    set { self[NumberClient.self] = newValue }
  }
  fileprivate var greeting: GreetingClient {
    get { self[GreetingClient.self] }
    set { self[GreetingClient.self] = newValue }
  }
}

@MainActor
@Suite("Dependencies")
struct DependencyTests {
  @Test("a live-only dependency read in a test is reported with TCA's wording")
  func unimplementedInTest() {
    var value = ""
    let issues = withIssueCapture {
      withDependencies { $0.context = .test } operation: {
        @Dependency(\.numberClient) var client
        value = client.fetch(1)
      }
    }
    #expect(value == "live 1")
    #expect(issues.count == 1)
    let message = issues.first?.message ?? ""
    // The property's name is not readable at run time on Linux for a fileprivate key path, so
    // the message names the key type, in the form TCA accepts for type-keyed dependencies.
    #expect(
      message.hasPrefix(
        "@Dependency(NumberClient.self) has no test implementation, but was accessed from a test context:"
      )
    )
    #expect(message.contains("override 'NumberClient' with a test value"))
    #expect(issues.first?.fileID == "ArchitectureTests/DependencyTests.swift")
  }

  @Test("calling the built-in uuid generator without overriding it in a test is reported")
  func unimplementedUUID() {
    let issues = withIssueCapture {
      withDependencies { $0.context = .test } operation: {
        @Dependency(\.uuid) var uuid
        _ = uuid()
      }
    }
    #expect(issues.map { $0.message.prefix(66) } == [
      #"@Dependency(\.uuid) has no test implementation, but was accessed f"#
    ])
  }

  @Test("a key with a test value is used in tests and reports nothing")
  func testValue() {
    var greeting = ""
    let issues = withIssueCapture {
      withDependencies { $0.context = .test } operation: {
        @Dependency(\.greeting) var client
        greeting = client.greet()
      }
    }
    #expect(issues.isEmpty)
    #expect(greeting == "hello from tests")
  }

  @Test("withDependencies overrides a value for its operation only")
  func override() {
    @Dependency(\.numberClient) var client
    let inside = withDependencies {
      $0.numberClient.fetch = { "fake \($0)" }
    } operation: {
      client.fetch(2)
    }
    #expect(inside == "fake 2")
    #expect(withDependencies { $0.context = .live } operation: { client.fetch(2) } == "live 2")
  }

  @Test("the incrementing uuid generator counts up from zero, one count per generator")
  func incrementingUUID() {
    let first = UUIDGenerator.incrementing
    #expect(first().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(first().uuidString == "00000000-0000-0000-0000-000000000001")
    let second = UUIDGenerator.incrementing
    #expect(second().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(UUID(counting: 0x1_0000_0000).uuidString == "00000000-0000-0000-0000-000100000000")
  }

  @Test("a store reduces with its own dependencies and effects keep them inside their task")
  func storeAndEffectsCaptureDependencies() async {
    struct Feature: Reducer {
      @Dependency(\.numberClient) var client
      enum Action { case go, got(String) }
      func reduce(into state: inout [String], action: Action) -> Effect<Action> {
        switch action {
        case .go:
          state.append(client.fetch(1))
          return .run { send in
            @Dependency(\.numberClient) var client
            await send(.got(client.fetch(2)))
          }
        case let .got(value):
          state.append(value)
          return .none
        }
      }
    }
    let store = Store(initialState: [String]()) {
      Feature()
    } withDependencies: {
      $0.numberClient.fetch = { "stub \($0)" }
    }
    await store.send(.go).finish()
    #expect(store.state == ["stub 1", "stub 2"])
  }

  @Test(
    "calendar, locale and time zone read unset in a test are reported and give the current ones",
    arguments: ["calendar", "locale", "timeZone"]
  )
  func foundationValuesUnsetInTest(property: String) {
    var isCurrent = false
    let issues = withIssueCapture {
      withDependencies { $0.context = .test } operation: {
        switch property {
        case "calendar":
          @Dependency(\.calendar) var calendar
          isCurrent = calendar == .autoupdatingCurrent
        case "locale":
          @Dependency(\.locale) var locale
          isCurrent = locale == .autoupdatingCurrent
        default:
          @Dependency(\.timeZone) var timeZone
          isCurrent = timeZone == .autoupdatingCurrent
        }
      }
    }
    #expect(isCurrent)
    #expect(issues.count == 1)
    #expect(
      issues.first?.message.hasPrefix(
        "@Dependency(\\.\(property)) has no test implementation, but was accessed from a test"
      ) == true
    )
  }

  @Test("calendar, locale and time zone set in a test are read without an issue")
  func foundationValuesSetInTest() {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    let issues = withIssueCapture {
      withDependencies {
        $0.context = .test
        $0.calendar = Calendar(identifier: .iso8601)
        $0.calendar.firstWeekday = 2
        $0.locale = Locale(identifier: "fr_FR")
        $0.timeZone = tokyo
      } operation: {
        @Dependency(\.calendar) var calendar
        @Dependency(\.locale) var locale
        @Dependency(\.timeZone) var timeZone
        #expect(calendar.identifier == .iso8601)
        #expect(calendar.firstWeekday == 2)
        #expect(locale.identifier == "fr_FR")
        #expect(timeZone == tokyo)
      }
    }
    #expect(issues.isEmpty)
  }

  @Test("setting date.now fixes the date the generator gives, without reading the unset one")
  func settingDateNow() {
    let fixed = Date(timeIntervalSince1970: 1_234_567_890)
    let issues = withIssueCapture {
      withDependencies {
        $0.context = .test
        $0.date.now = fixed
      } operation: {
        @Dependency(\.date) var date
        #expect(date.now == fixed)
        #expect(date() == fixed)
      }
    }
    #expect(issues.isEmpty)
  }

  @Test("a seeded random number generator gives repeatable values")
  func randomNumberGenerator() {
    struct Seeded: RandomNumberGenerator, Sendable {
      var state: UInt64
      mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
      }
    }
    func roll() -> [Int] {
      withDependencies {
        $0.withRandomNumberGenerator = WithRandomNumberGenerator(Seeded(state: 7))
      } operation: {
        @Dependency(\.withRandomNumberGenerator) var random
        return (0..<5).map { _ in random { Int.random(in: 1...6, using: &$0) } }
      }
    }
    #expect(roll() == roll())
  }
}
