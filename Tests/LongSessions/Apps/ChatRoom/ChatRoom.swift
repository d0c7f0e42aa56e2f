import Architecture
import Foundation

/// A chat room: sign in with a token, post messages (typing shows an indicator that clears
/// after a pause), watch who else types, open threads on a stack, change settings in a sheet.
struct ChatRoom: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    @BindingState var draft = ""
    var displayName = "guest"
    var isTyping = false
    var messages: IdentifiedArrayOf<Message> = []
    var notificationsEnabled = true
    var path = StackState<ChatThread.State>()
    var sessionToken: String?
    @PresentationState var settings: ChatSettings.State?
    var typingUsers: [String: Date] = [:]
  }

  enum Action: BindableAction, Equatable {
    case alert(PresentationAction<Alert>)
    case binding(BindingAction<State>)
    case deleteButtonTapped(Message.ID)
    case loggedIn(token: String)
    case messageReceived(author: String, text: String)
    case path(StackAction<ChatThread.State, ChatThread.Action>)
    case peerTyping(String)
    case peerTypingExpired(String)
    case postResponse(Message.ID, TaskResult<Int>)
    case sendButtonTapped
    case settings(PresentationAction<ChatSettings.Action>)
    case settingsButtonTapped
    case threadTapped(Message.ID)
    case typingPaused

    enum Alert: Equatable {
      case confirmDelete(Message.ID)
      case retry(Message.ID)
    }
  }

  enum CancelID: Hashable {
    case peer(String)
    case typing
  }

  @Dependency(\.chatClient) var chatClient
  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case let .alert(.presented(.confirmDelete(id))):
        state.messages.remove(id: id)
        return .none

      case let .alert(.presented(.retry(id))):
        guard let message = state.messages[id: id] else { return .none }
        state.messages[id: id]?.isPending = true
        return post(message, token: state.sessionToken)

      case .alert:
        return .none

      case .binding(\.$draft):
        state.isTyping = !state.draft.isEmpty
        return .run { send in
          try await self.clock.sleep(for: .seconds(2))
          await send(.typingPaused)
        }
        .cancellable(id: CancelID.typing, cancelInFlight: true)

      case .binding:
        return .none

      case let .deleteButtonTapped(id):
        guard let message = state.messages[id: id] else { return .none }
        state.alert = AlertState {
          TextState("Delete this message?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDelete(id)) { TextState("Delete") }
          ButtonState(role: .cancel) { TextState("Keep") }
        } message: {
          TextState("“\(message.text)” will be gone for everyone.")
        }
        return .none

      case let .loggedIn(token):
        state.sessionToken = token
        return .none

      case let .messageReceived(author, text):
        state.typingUsers[author] = nil
        state.messages.append(Message(id: uuid(), author: author, text: text, sentAt: now))
        return .cancel(id: CancelID.peer(author))

      case let .path(.element(id: id, action: .replyButtonTapped)):
        guard let thread = state.path[id: id] else { return .none }
        state.messages[id: thread.root.id]?.replyCount = thread.replies.count
        return .none

      case .path:
        return .none

      case let .peerTyping(name):
        state.typingUsers[name] = now
        return .run { send in
          try await self.clock.sleep(for: .seconds(5))
          await send(.peerTypingExpired(name))
        }
        .cancellable(id: CancelID.peer(name), cancelInFlight: true)

      case let .peerTypingExpired(name):
        state.typingUsers[name] = nil
        return .none

      case let .postResponse(id, .failure(error)):
        state.messages[id: id]?.isPending = false
        state.alert = AlertState {
          TextState("Not sent")
        } actions: {
          ButtonState(action: .retry(id)) { TextState("Retry") }
          ButtonState(role: .cancel) { TextState("Cancel") }
        } message: {
          TextState(error.localizedDescription)
        }
        return .none

      case let .postResponse(id, .success):
        state.messages[id: id]?.isPending = false
        return .none

      case .sendButtonTapped:
        guard !state.draft.isEmpty else { return .none }
        let message = Message(
          id: uuid(), author: state.displayName, text: state.draft, sentAt: now, isPending: true)
        state.messages.append(message)
        state.draft = ""
        state.isTyping = false
        return .merge(.cancel(id: CancelID.typing), post(message, token: state.sessionToken))

      case let .settings(.presented(.delegate(.saved(name, enabled)))):
        state.displayName = name
        state.notificationsEnabled = enabled
        return .none

      case .settings:
        return .none

      case .settingsButtonTapped:
        state.settings = ChatSettings.State(
          displayName: state.displayName, notificationsEnabled: state.notificationsEnabled)
        return .none

      case let .threadTapped(id):
        guard let message = state.messages[id: id] else { return .none }
        state.path.append(ChatThread.State(root: message))
        return .none

      case .typingPaused:
        state.isTyping = false
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
    .ifLet(\.$settings, action: /Action.settings) {
      ChatSettings()
    }
    .forEach(\.path, action: /Action.path) {
      ChatThread()
    }
  }

  private func post(_ message: Message, token: String?) -> Effect<Action> {
    .run { send in
      await send(
        .postResponse(
          message.id, TaskResult { try await self.chatClient.post(message.text, token ?? "") }))
    }
  }
}
