import Architecture

/// What the notification settings screen stores.
struct Preferences: Codable, Equatable {
  var digestEnabled = false
  var digestHour = 8
  var displayName = ""
  var mentionsOnly = false
}

/// Loads and saves the user's notification preferences.
struct PreferencesClient {
  var load: @Sendable () async throws -> Preferences
  var save: @Sendable (Preferences) async throws -> Void
}

extension PreferencesClient: DependencyKey {
  static let liveValue = PreferencesClient(
    load: { Preferences() },
    save: { _ in }
  )

  static let testValue = PreferencesClient(
    load: unimplemented("PreferencesClient.load"),
    save: unimplemented("PreferencesClient.save")
  )
}

extension DependencyValues {
  var preferencesClient: PreferencesClient {
    get { self[PreferencesClient.self] }
    set { self[PreferencesClient.self] = newValue }
  }
}
