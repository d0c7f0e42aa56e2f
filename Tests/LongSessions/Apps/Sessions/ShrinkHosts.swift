import Architecture
import Recorder

/// The chat room as a replay host, for `shrink`'s tests: as recorded, or with the typing
/// expiry that no longer clears who is typing (the one-line change the generated tests are
/// checked against, compiled in).
public enum ChatRoomHost {
  /// Runs the host; `expiresTyping: false` is the changed reducer.
  public static func run(expiresTyping: Bool) -> Never {
    if expiresTyping {
      ReplayHost.run([ReplayTarget(ChatRoom())])
    } else {
      ReplayHost.run([ReplayTarget(ChatRoomKeepingTypists())])
    }
  }
}

/// The chat room whose typing expiry leaves the name in `typingUsers`.
struct ChatRoomKeepingTypists: Reducer {
  var body: some ReducerOf<ChatRoom> {
    Reduce { state, action in
      if case .peerTypingExpired = action { return .none }
      return ChatRoom().reduce(into: &state, action: action)
    }
  }
}
