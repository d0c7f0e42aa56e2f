import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class OnboardingTests: XCTestCase {
  func testSigningUpDismissesTheSheetAndWelcomesTheUser() async {
    let account = Account(email: "ada@example.com", id: UUID(0))
    let store = TestStore(initialState: Onboarding.State()) {
      Onboarding()
    } withDependencies: {
      $0.accountClient.register = { email, _ in Account(email: email, id: UUID(0)) }
    }

    await store.send(.signUpButtonTapped) {
      $0.destination = .signUp(SignUp.State())
    }
    await store.send(.destination(.presented(.signUp(.set(\.$email, "ada@example.com"))))) {
      XCTModify(&$0.destination, case: /Onboarding.Destination.State.signUp) {
        $0.email = "ada@example.com"
      }
    }
    await store.send(.destination(.presented(.signUp(.set(\.$password, "analytical"))))) {
      XCTModify(&$0.destination, case: /Onboarding.Destination.State.signUp) {
        $0.password = "analytical"
      }
    }
    await store.send(.destination(.presented(.signUp(.submitButtonTapped)))) {
      XCTModify(&$0.destination, case: /Onboarding.Destination.State.signUp) {
        $0.isSubmitting = true
      }
    }
    await store.receive(.destination(.presented(.signUp(.signUpResponse(.success(account)))))) {
      XCTModify(&$0.destination, case: /Onboarding.Destination.State.signUp) {
        $0.isSubmitting = false
      }
    }
    await store.receive(.destination(.presented(.signUp(.delegate(.didCreateAccount(account)))))) {
      $0.account = account
      $0.alert = .welcome(account)
    }
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
    }
    await store.send(.alert(.presented(.continueTapped))) {
      $0.alert = nil
    }
    await store.receive(.delegate(.finished(account)))
  }

  func testCancelClosesTheSheet() async {
    let store = TestStore(initialState: Onboarding.State()) {
      Onboarding()
    }

    await store.send(.signUpButtonTapped) {
      $0.destination = .signUp(SignUp.State())
    }
    await store.send(.destination(.presented(.signUp(.cancelButtonTapped))))
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
    }
  }

  func testAcceptingTheTermsMovesOnToSignUp() async {
    let store = TestStore(initialState: Onboarding.State()) {
      Onboarding()
    }

    await store.send(.termsButtonTapped) {
      $0.destination = .terms(Terms.State())
    }
    await store.send(.destination(.presented(.terms(.acceptButtonTapped))))
    await store.send(.destination(.presented(.terms(.scrolledToEnd)))) {
      $0.destination = .terms(Terms.State(hasReadToEnd: true))
    }
    await store.send(.destination(.presented(.terms(.acceptButtonTapped))))
    await store.receive(.destination(.presented(.terms(.delegate(.accepted))))) {
      $0.destination = .signUp(SignUp.State())
    }
  }

  func testFailureKeepsTheSheetOpen() async {
    struct Unreachable: Error {}
    let store = TestStore(
      initialState: Onboarding.State(
        destination: .signUp(SignUp.State(email: "ada@example.com", password: "analytical"))
      )
    ) {
      Onboarding()
    } withDependencies: {
      $0.accountClient.register = { _, _ in throw Unreachable() }
    }

    await store.withExhaustivity(.off) {
      await store.send(.destination(.presented(.signUp(.submitButtonTapped))))
      await store.skipReceivedActions()
    }
    store.assert {
      $0.destination = .signUp(
        SignUp.State(
          email: "ada@example.com",
          errorMessage: "We couldn't create your account. Try again.",
          password: "analytical"
        )
      )
    }
    XCTAssertNil(store.state.account)
  }

  func testDismissingTheSheetCancelsTheRequest() async {
    let store = TestStore(
      initialState: Onboarding.State(
        destination: .signUp(SignUp.State(email: "ada@example.com", password: "analytical"))
      )
    ) {
      Onboarding()
    } withDependencies: {
      $0.accountClient.register = { _, _ in try await Task.never() }
    }

    await store.send(.destination(.presented(.signUp(.submitButtonTapped)))) {
      XCTModify(&$0.destination, case: /Onboarding.Destination.State.signUp) {
        $0.isSubmitting = true
      }
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
    await store.finish()
  }
}
