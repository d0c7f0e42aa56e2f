import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class AppRootTests: XCTestCase {
  let account = Account(email: "grace@example.com", id: UUID(7))

  func testFinishingOnboardingShowsHome() async {
    let store = TestStore(
      initialState: AppRoot.State.onboarding(
        Onboarding.State(account: self.account, alert: .welcome(self.account))
      )
    ) {
      AppRoot()
    }

    await store.send(.onboarding(.alert(.presented(.continueTapped)))) {
      XCTModify(&$0, case: /AppRoot.State.onboarding) {
        $0.alert = nil
      }
    }
    await store.receive(.onboarding(.delegate(.finished(self.account)))) {
      $0 = .home(Home.State(account: self.account))
    }
    await store.send(.home(.onAppear)) {
      $0 = .home(Home.State(account: self.account, visits: 1))
    }
  }

  func testLoggingOutReturnsToOnboarding() async {
    let store = TestStore(initialState: AppRoot.State.home(Home.State(account: self.account))) {
      AppRoot()
    }

    await store.send(.home(.logOutButtonTapped)) {
      $0 = .onboarding(Onboarding.State())
    }
  }
}
