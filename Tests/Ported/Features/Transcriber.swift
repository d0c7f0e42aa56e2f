import Architecture

/// A note being dictated, or dictated already.
struct Draft: Equatable {
  var text = ""
  var wordCount = 0
}

/// Turns the speech recorded so far into text.
struct TranscriberClient {
  var finish: @Sendable () async throws -> String
}

extension TranscriberClient: DependencyKey {
  static let liveValue = TranscriberClient(finish: { "" })
  static let testValue = TranscriberClient(finish: unimplemented("TranscriberClient.finish"))
}

extension DependencyValues {
  var transcriber: TranscriberClient {
    get { self[TranscriberClient.self] }
    set { self[TranscriberClient.self] = newValue }
  }
}
