import Architecture

/// A newly registered user.
struct Account: Equatable, Codable {
  var email: String
  var id: UUID
}

/// Registers accounts with the backend.
struct AccountClient {
  var register: @Sendable (_ email: String, _ password: String) async throws -> Account
}

extension AccountClient: DependencyKey {
  static let liveValue = AccountClient(
    register: { email, _ in Account(email: email, id: UUID()) }
  )

  static let testValue = AccountClient(
    register: unimplemented("AccountClient.register")
  )
}

extension DependencyValues {
  var accountClient: AccountClient {
    get { self[AccountClient.self] }
    set { self[AccountClient.self] = newValue }
  }
}
