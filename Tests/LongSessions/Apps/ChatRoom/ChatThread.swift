import Architecture
import Foundation

/// A thread pushed on the room's stack: its first message, the replies, and a reply draft.
struct ChatThread: Reducer {
  struct State: Equatable {
    @BindingState var draft = ""
    var replies: IdentifiedArrayOf<Message> = []
    var root: Message
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case closeButtonTapped
    case replyButtonTapped
    case replyDeleted(Message.ID)
  }

  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none

      case .closeButtonTapped:
        return .run { _ in await self.dismiss() }

      case .replyButtonTapped:
        guard !state.draft.isEmpty else { return .none }
        state.replies.append(
          Message(id: uuid(), author: "me", text: state.draft, sentAt: now))
        state.draft = ""
        return .none

      case let .replyDeleted(id):
        state.replies.remove(id: id)
        return .none
      }
    }
  }
}
