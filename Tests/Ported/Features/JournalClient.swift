import Architecture

/// A journal page: what the editor shows and saves.
struct JournalEntry: Codable, Equatable {
  var title = ""
  var body = ""
  var summary: String?
}

/// Loads and saves the journal, suggests something to write about and sums a page up.
struct JournalClient {
  var load: @Sendable () async throws -> JournalEntry
  var prompt: @Sendable () async throws -> String
  var save: @Sendable (Data) async throws -> Void
  var summarize: @Sendable (JournalEntry) async throws -> String
}

extension JournalClient: DependencyKey {
  static let liveValue = JournalClient(
    load: { JournalEntry() },
    prompt: { "What grew this week?" },
    save: { _ in },
    summarize: { String($0.body.prefix(40)) }
  )

  static let testValue = JournalClient(
    load: unimplemented("JournalClient.load"),
    prompt: unimplemented("JournalClient.prompt"),
    save: unimplemented("JournalClient.save"),
    summarize: unimplemented("JournalClient.summarize")
  )
}

extension DependencyValues {
  var journalClient: JournalClient {
    get { self[JournalClient.self] }
    set { self[JournalClient.self] = newValue }
  }
}
