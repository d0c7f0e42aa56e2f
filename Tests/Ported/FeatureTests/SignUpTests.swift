import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class SignUpTests: XCTestCase {
  func testIncompleteFormIsRejected() async {
    let store = TestStore(initialState: SignUp.State()) {
      SignUp()
    }

    await store.send(.set(\.$email, "noor@example.com")) {
      $0.email = "noor@example.com"
    }
    await store.send(.submitButtonTapped) {
      $0.errorMessage = "Enter an email address and a password of 8 or more characters."
    }
    await store.send(.set(\.$password, "hunter22")) {
      $0.password = "hunter22"
      $0.errorMessage = nil
    }
    XCTAssertTrue(store.state.canSubmit)
  }

  func testSuccessOnItsOwnReportsWithoutDismissing() async {
    let account = Account(email: "noor@example.com", id: UUID(0))
    let store = TestStore(
      initialState: SignUp.State(email: "noor@example.com", password: "correct horse")
    ) {
      SignUp()
    } withDependencies: {
      $0.accountClient.register = { email, _ in Account(email: email, id: UUID(0)) }
    }

    await store.send(.submitButtonTapped) {
      $0.isSubmitting = true
    }
    await store.receive(.signUpResponse(.success(account))) {
      $0.isSubmitting = false
    }
    await store.receive(.delegate(.didCreateAccount(account)))
  }

  func testCancelOnItsOwnDoesNothing() async {
    let store = TestStore(initialState: SignUp.State()) {
      SignUp()
    }

    await store.send(.cancelButtonTapped)
  }

  func testRegistrationFailureShowsAMessage() async {
    struct EmailTaken: Error, Equatable {}
    let store = TestStore(
      initialState: SignUp.State(email: "noor@example.com", password: "correct horse")
    ) {
      SignUp()
    } withDependencies: {
      $0.accountClient.register = { _, _ in throw EmailTaken() }
    }

    await store.send(.submitButtonTapped) {
      $0.isSubmitting = true
    }
    await store.receive(.signUpResponse(.failure(EmailTaken()))) {
      $0.isSubmitting = false
      $0.errorMessage = "We couldn't create your account. Try again."
    }
  }
}
