import Architecture

/// A signed-in player.
struct Player: Equatable {
  var name: String
  var token: String
}

/// What signing in answered: a player, or a request for the code sent to their phone.
struct SignInResponse: Equatable {
  var needsCode: Bool
  var token: String
}

/// Why signing in failed, as the server words it.
enum SignInError: LocalizedError, Equatable {
  case invalidCode
  case invalidPassword

  var errorDescription: String? {
    switch self {
    case .invalidCode: return "That code has expired. Ask for a new one."
    case .invalidPassword: return "The email or password is wrong."
    }
  }
}

/// Signs players in to the arcade.
struct ArcadeAuthClient {
  var signIn: @Sendable (_ email: String, _ password: String) async throws -> SignInResponse
  var verify: @Sendable (_ code: String, _ token: String) async throws -> Player
}

extension ArcadeAuthClient: DependencyKey {
  static let liveValue = ArcadeAuthClient(
    signIn: { email, password in
      guard password == "hunter2" else { throw SignInError.invalidPassword }
      return SignInResponse(needsCode: email.hasSuffix("@secure.example"), token: "t-\(email)")
    },
    verify: { code, token in
      guard code == "1234" else { throw SignInError.invalidCode }
      return Player(name: String(token.dropFirst(2).prefix { $0 != "@" }), token: token)
    }
  )

  static let testValue = ArcadeAuthClient(
    signIn: unimplemented("ArcadeAuthClient.signIn"),
    verify: unimplemented("ArcadeAuthClient.verify")
  )
}

extension DependencyValues {
  var arcadeAuth: ArcadeAuthClient {
    get { self[ArcadeAuthClient.self] }
    set { self[ArcadeAuthClient.self] = newValue }
  }
}
