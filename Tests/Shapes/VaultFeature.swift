import Architecture
import Foundation

/// A password vault, written as a TCA user writes one: no `Codable`, a password typed through a
/// binding, a session token the sign-in hands over, entries that each keep a secret, and a
/// device key drawn from `uuid`. A trace records all four redacted; the generator's tests check
/// that a redacted value sent in an action flows through the state as one placeholder, and
/// that only the step that draws the device key (from nothing the test sends) turns
/// exhaustivity off.
struct VaultFeature: Reducer {
  struct State: Equatable {
    @BindingState var password = ""
    var isSigningIn = false
    var sessionToken: String?
    var entries: IdentifiedArrayOf<Entry> = []
    var deviceKey: UUID?
    var log: [String] = []
  }

  struct Entry: Equatable, Identifiable {
    let id: UUID
    var title: String
    var secret: String
  }

  enum Action: Equatable, BindableAction {
    case binding(BindingAction<State>)
    case signInTapped
    case signedIn(token: String)
    case entryAdded(title: String, secret: String)
    case entryRenamed(id: UUID, title: String)
    case pairDeviceTapped
    case signOutTapped
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case .signInTapped:
        state.isSigningIn = true
        return .none
      case let .signedIn(token):
        state.isSigningIn = false
        state.password = ""
        state.sessionToken = token
        state.log.append("signed in")
        return .none
      case let .entryAdded(title, secret):
        state.entries.append(Entry(id: uuid(), title: title, secret: secret))
        return .none
      case let .entryRenamed(id, title):
        state.entries[id: id]?.title = title
        return .none
      case .pairDeviceTapped:
        state.deviceKey = uuid()
        state.log.append("paired")
        return .none
      case .signOutTapped:
        state.sessionToken = nil
        state.deviceKey = nil
        state.log.append("signed out")
        return .none
      }
    }
  }
}
