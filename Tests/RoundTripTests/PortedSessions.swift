import Architecture
import ExampleSessions
import Foundation
import Recorder
import Testing

@testable import PortedFeatures

/// Sessions of the TCA 1.3-style corpus in `Tests/Ported` (built in Swift 5 mode), recorded in
/// this test run: its features are internal, as an app's are, so they are replayed with the
/// library here and their generated tests `@testable import` them.
enum PortedSession: String, CaseIterable, CustomTestStringConvertible {
  /// A stack of recipe details and shopping lists; an alert in a stack element; a detail that
  /// deletes and pops itself.
  case recipeBook = "recipe-book"
  /// An enum root (`ifCaseLet`); a sheet destination of terms or a sign-up form with bindings
  /// and a `TaskResult` request; an alert; log-out back to onboarding.
  case appRoot = "app-root"

  var testDescription: String { rawValue }

  /// Records the session to a new file and returns its path.
  @MainActor
  func record() async throws -> String {
    try await recordFresh(rawValue) { recorder in
      switch self {
      case .recipeBook: await Self.recordRecipeBook(to: recorder)
      case .appRoot: await Self.recordAppRoot(to: recorder)
      }
    }
  }

  /// Replays `path` through today's reducer with the library, as `bisect` does in `mode`.
  func replay(_ path: String, mode: ReplayMode) throws -> ReplayReport {
    switch self {
    case .recipeBook:
      try Replayer(reducer: RecipeBook(), options: .init(mode: mode, maximumDivergences: 10))
        .replay(tracePath: path)
    case .appRoot:
      try Replayer(reducer: AppRoot(), options: .init(mode: mode, maximumDivergences: 10))
        .replay(tracePath: path)
    }
  }

  @MainActor
  private static func recordRecipeBook(to recorder: TraceRecorder) async {
    let clock = TestClock()
    let store = Store(initialState: RecipeBook.State()) {
      RecipeBook().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.stackElementID = .incrementing()
      $0.continuousClock = clock
    }
    let driver = SessionDriver(store: store, clock: clock)
    func detail(_ id: StackElementID, _ action: RecipeDetail.Action) async {
      await driver.send(.path(.element(id: id, action: .detail(action))))
    }
    await driver.send(.addRecipeButtonTapped)
    await driver.send(.addRecipeButtonTapped)
    let first = store.state.path.ids[0]
    let second = store.state.path.ids[1]
    await detail(second, .servingsStepperChanged(4))
    await detail(second, .servingsStepperChanged(0))
    await detail(second, .shoppingListButtonTapped)
    let list = store.state.path.ids.last!
    await driver.send(.path(.element(id: list, action: .shopping(.clearCheckedButtonTapped))))
    await driver.send(.path(.popFrom(id: list)))
    // Asked, kept, asked again, deleted: the detail pops itself.
    await detail(second, .deleteButtonTapped)
    await detail(second, .alert(.dismiss))
    await detail(second, .deleteButtonTapped)
    await detail(second, .alert(.presented(.confirmDeletion)))
    await detail(first, .servingsStepperChanged(6))
    await driver.send(.path(.popFrom(id: first)))
    await driver.send(.recipeTapped(store.state.recipes.ids[0]))
  }

  @MainActor
  private static func recordAppRoot(to recorder: TraceRecorder) async {
    struct Taken: Error {}
    let clock = TestClock()
    let store = Store(initialState: AppRoot.State.onboarding(Onboarding.State())) {
      AppRoot().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
      $0.accountClient = AccountClient { email, _ in
        guard email != "taken@example.com" else { throw Taken() }
        return Account(email: email, id: UUID(0))
      }
    }
    let driver = SessionDriver(store: store, clock: clock)
    func signUp(_ action: SignUp.Action) async {
      await driver.send(.onboarding(.destination(.presented(.signUp(action)))))
    }
    await driver.send(.onboarding(.termsButtonTapped))
    await driver.send(.onboarding(.destination(.presented(.terms(.scrolledToEnd)))))
    await driver.send(.onboarding(.destination(.presented(.terms(.acceptButtonTapped)))))
    await signUp(.binding(.set(\.$email, "taken@example.com")))
    await signUp(.submitButtonTapped)
    await signUp(.binding(.set(\.$password, "correct horse")))
    await signUp(.submitButtonTapped)
    await signUp(.binding(.set(\.$email, "ada@example.com")))
    await signUp(.submitButtonTapped)
    await driver.send(.onboarding(.alert(.presented(.continueTapped))))
    await driver.send(.home(.onAppear))
    await driver.send(.home(.logOutButtonTapped))
    await driver.send(.onboarding(.signUpButtonTapped))
    await signUp(.cancelButtonTapped)
  }
}

/// The ported corpus, recorded now, replays clean through its unchanged reducers.
@Suite("Fresh recordings of the TCA 1.3-style corpus replay clean")
struct PortedReplayTests {
  @Test(
    "isolated and cumulative replays find no divergence",
    arguments: PortedSession.allCases, [ReplayMode.isolated, .cumulative])
  func replaysClean(session: PortedSession, mode: ReplayMode) async throws {
    let trace = try await session.record()
    defer { try? FileManager.default.removeItem(atPath: trace) }
    let report = try session.replay(trace, mode: mode)
    #expect(report.steps > 10)
    #expect(report.divergentSteps == 0, "\(report)")
    #expect(report.unknown == 0)
  }
}
