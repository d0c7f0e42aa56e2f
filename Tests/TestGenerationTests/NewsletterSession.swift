import Architecture
import Foundation
import Recorder

@testable import Shapes

/// Records a newsletter sign-up with its email addresses redacted (`.key("email")`): a good
/// address subscribed, then a bad one refused and cleared, with topics toggled around them.
/// The committed fixture `Fixtures/newsletter-redacted.ndjson` is this recording;
/// `RECORD_GENERATED_TESTS=1` records it again.
enum NewsletterSession {
  static let fixture = "Tests/TestGenerationTests/Fixtures/newsletter-redacted.ndjson"

  static let actions: [NewsletterSignupFeature.Action] = [
    .topicToggled("coffee"),
    .emailChanged(email: "ada@example.com"), .topicToggled("tea"), .subscribeTapped,
    .topicToggled("cocoa"),
    .emailChanged(email: "bob@"), .subscribeTapped, .emailCleared,
    .topicToggled("milk"),
  ]

  /// Records the session into `path`.
  @MainActor
  static func record(to path: String) throws {
    let recorder = try TraceRecorder(
      path: path, options: .init(keyframeInterval: 0, redactions: [.key("email")]))
    let store = Store(initialState: NewsletterSignupFeature.State()) {
      NewsletterSignupFeature().recording(to: recorder)
    }
    for action in actions { store.send(action) }
    try recorder.close()
  }
}
