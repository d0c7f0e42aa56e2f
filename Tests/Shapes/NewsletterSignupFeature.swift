import Architecture

/// A newsletter sign-up whose email address is personal data: a trace records it redacted
/// (`.key("email")`), and the reducer branches on it (an address without "@" is refused). What
/// the generator's redaction tests record: a generated test must pass against this reducer
/// without the address, so it cannot send the placeholder `"<redacted>"` where the check reads
/// it.
struct NewsletterSignupFeature: Reducer {
  struct State: Equatable, Codable {
    var topics: Set<String> = []
    /// Cleared once subscribed: the address is kept no longer than needed.
    var email: String?
    var isSubscribed = false
    var message: String?
  }

  enum Action: Equatable, Codable {
    case topicToggled(String)
    case emailChanged(email: String)
    case emailCleared
    case subscribeTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .topicToggled(topic):
      if state.topics.remove(topic) == nil { state.topics.insert(topic) }
    case let .emailChanged(email):
      state.email = email
      state.message = nil
    case .emailCleared:
      state.email = nil
    case .subscribeTapped:
      guard let email = state.email, email.contains("@"), !email.hasSuffix("@") else {
        state.message = "Check the address"
        return .none
      }
      state.isSubscribed = true
      state.email = nil
      state.message = "Subscribed to \(state.topics.count) topics"
    }
    return .none
  }
}
