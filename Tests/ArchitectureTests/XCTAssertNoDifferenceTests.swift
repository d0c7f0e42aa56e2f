import Architecture
import Testing

@Suite("XCTAssertNoDifference and XCTModify")
struct XCTAssertNoDifferenceTests {
  struct User: Equatable {
    var id: Int
    var name: String
  }

  @Test("Equal values report nothing")
  func equal() {
    let issues = withIssueCapture {
      XCTAssertNoDifference(User(id: 1, name: "Blob"), User(id: 1, name: "Blob"))
    }
    #expect(issues.isEmpty)
  }

  @Test("Different values report a diff in TCA's wording, with the message appended")
  func different() {
    let issues = withIssueCapture {
      XCTAssertNoDifference(User(id: 1, name: "Blob"), User(id: 1, name: "Blob!"), "names")
    }
    #expect(
      issues.map(\.message) == [
        """
        XCTAssertNoDifference failed: …

            XCTAssertNoDifferenceTests.User(
              id: 1,
          −   name: "Blob"
          +   name: "Blob!"
            )

        (First: −, Second: +) - names
        """
      ]
    )
  }

  @Test("XCTModify changes the wrapped value in place")
  func modify() {
    var user: User? = User(id: 1, name: "Blob")
    let issues = withIssueCapture {
      XCTModify(&user) { $0.name = "Blob Jr." }
    }
    #expect(issues.isEmpty)
    #expect(user == User(id: 1, name: "Blob Jr."))
  }

  @Test("XCTModify reports a nil optional")
  func modifyNil() {
    var count: Int? = nil
    let issues = withIssueCapture {
      XCTModify(&count) { $0 += 1 }
    }
    #expect(
      issues.map(\.message) == [
        """
        XCTModify failed: expected to extract value of type "Int" from "Int?" …

          Actual:
            nil
        """
      ]
    )
    #expect(count == nil)
  }

  @Test("XCTModify reports a modification that changes nothing")
  func modifyUnchanged() {
    var count: Int? = 1
    let issues = withIssueCapture {
      XCTModify(&count) { _ in }
    }
    #expect(
      issues.map(\.message) == [
        #"XCTModify failed: expected "Int" value to be modified but it was unchanged."#
      ]
    )
  }

  @Test("XCTModify with a case path modifies the case's value, and reports another case")
  func modifyCase() {
    enum Destination: Equatable {
      case detail(Int)
      case settings
    }
    var destination = Destination.detail(1)
    var issues = withIssueCapture {
      XCTModify(&destination, case: /Destination.detail) { $0 += 1 }
    }
    #expect(issues.isEmpty)
    #expect(destination == .detail(2))
    destination = .settings
    issues = withIssueCapture {
      XCTModify(&destination, case: /Destination.detail) { $0 += 1 }
    }
    #expect(
      issues.map(\.message) == [
        """
        XCTModify failed: expected to extract value of type "Int" from \
        "XCTAssertNoDifferenceTests.Destination" …

          Actual:
            XCTAssertNoDifferenceTests.Destination.settings
        """
      ]
    )
  }
}

@MainActor
@Suite("XCTModify inside a non-exhaustive TestStore")
struct XCTModifyExhaustivityTests {
  struct Feature: Reducer {
    struct State: Equatable { var note: String? = "a" }
    enum Action { case edit }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.note = "b"
      return .none
    }
  }

  @Test("an XCTModify that changes nothing is not reported when exhaustivity is off")
  func unchangedIsFineWhenOff() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    store.exhaustivity = .off
    let issues = await withIssueCapture {
      await store.send(.edit) { XCTModify(&$0.note) { $0 = "b" } }
    }
    #expect(issues.isEmpty)
  }
}
