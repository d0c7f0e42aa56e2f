import Architecture
import Foundation

/// A message in the room or in a thread.
struct Message: Equatable, Identifiable {
  var id: UUID
  var author: String
  var text: String
  var sentAt: Date
  var isPending = false
  var replyCount = 0
}

/// Why the chat server refused a message.
struct ChatServerError: LocalizedError, Equatable {
  var reason: String

  var errorDescription: String? { "The server refused the message: \(reason)." }
}

/// The chat server: posts a message with the session's token and answers with its server id.
struct ChatClient {
  var post: @Sendable (_ text: String, _ token: String) async throws -> Int
}

extension ChatClient: DependencyKey {
  static let liveValue = ChatClient(
    post: { text, token in
      guard !token.isEmpty else { throw ChatServerError(reason: "not signed in") }
      guard text.count <= 40 else { throw ChatServerError(reason: "message too long") }
      return text.count
    }
  )

  static let testValue = ChatClient(post: unimplemented("ChatClient.post"))
}

extension DependencyValues {
  var chatClient: ChatClient {
    get { self[ChatClient.self] }
    set { self[ChatClient.self] = newValue }
  }
}
