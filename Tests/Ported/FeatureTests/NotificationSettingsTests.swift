import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class NotificationSettingsTests: XCTestCase {
  func testTaskLoadsStoredPreferences() async {
    let stored = Preferences(digestEnabled: true, digestHour: 7, displayName: "Ines", mentionsOnly: true)
    let store = TestStore(initialState: NotificationSettings.State()) {
      NotificationSettings()
    } withDependencies: {
      $0.preferencesClient.load = { stored }
    }

    await store.send(.task)
    await store.receive(.preferencesLoaded(.success(stored))) {
      $0.digestEnabled = true
      $0.digestHour = 7
      $0.displayName = "Ines"
      $0.mentionsOnly = true
    }
  }

  func testTurningTheDigestOnSavesIt() async {
    let saved = ActorIsolated<[Preferences]>([])
    let store = TestStore(initialState: NotificationSettings.State()) {
      NotificationSettings()
    } withDependencies: {
      $0.preferencesClient.save = { preferences in
        await saved.withValue { $0.append(preferences) }
      }
    }

    await store.send(.set(\.$digestEnabled, true)) {
      $0.digestEnabled = true
    }
    await store.finish()
    let savedValue = await saved.value
    XCTAssertNoDifference(savedValue, [Preferences(digestEnabled: true)])
  }

  func testTurningTheDigestOffClearsMentionsOnly() async {
    let saveCount = LockIsolated(0)
    let store = TestStore(
      initialState: NotificationSettings.State(digestEnabled: true, mentionsOnly: true)
    ) {
      NotificationSettings()
    } withDependencies: {
      $0.preferencesClient.save = { _ in saveCount.withValue { $0 += 1 } }
    }

    await store.send(.binding(.set(\.$digestEnabled, false))) {
      $0.digestEnabled = false
      $0.mentionsOnly = false
    }
    await store.finish()
    XCTAssertEqual(saveCount.value, 1)
  }

  func testDigestHourIsClampedToTheDay() async {
    let store = TestStore(initialState: NotificationSettings.State()) {
      NotificationSettings()
    } withDependencies: {
      $0.preferencesClient.save = { _ in }
    }

    await store.send(.set(\.$digestHour, 30)) {
      $0.digestHour = 23
    }
    await store.send(.set(\.$digestHour, -2)) {
      $0.digestHour = 0
    }
  }

  func testBlankDisplayNameIsFlaggedWithoutSaving() async {
    let store = TestStore(initialState: NotificationSettings.State(displayName: "Ines")) {
      NotificationSettings()
    }

    await store.send(.set(\.$displayName, "   ")) {
      $0.displayName = "   "
      $0.displayNameError = "Your name can't be blank."
    }
    await store.send(.set(\.$displayName, "Inès")) {
      $0.displayName = "Inès"
      $0.displayNameError = nil
    }
  }

  func testResetAsksFirstThenRestoresDefaults() async {
    let saved = LockIsolated<[Preferences]>([])
    let store = TestStore(
      initialState: NotificationSettings.State(
        digestEnabled: true, digestHour: 21, displayName: "Ines", mentionsOnly: true
      )
    ) {
      NotificationSettings()
    } withDependencies: {
      $0.preferencesClient.save = { preferences in saved.withValue { $0.append(preferences) } }
    }

    await store.send(.resetButtonTapped) {
      $0.confirmationDialog = .resetAll
    }
    await store.send(.confirmationDialog(.presented(.confirmReset))) {
      $0.confirmationDialog = nil
      $0.digestEnabled = false
      $0.digestHour = 8
      $0.mentionsOnly = false
    }
    await store.finish()
    XCTAssertNoDifference(saved.value, [Preferences(displayName: "Ines")])
  }

  func testDismissingTheResetDialogChangesNothing() async {
    let store = TestStore(
      initialState: NotificationSettings.State(confirmationDialog: .resetAll, digestEnabled: true)
    ) {
      NotificationSettings()
    }

    await store.send(.confirmationDialog(.dismiss)) {
      $0.confirmationDialog = nil
    }
  }

  func testSaveFailureIsReported() async {
    struct Offline: Error {}
    let store = TestStore(initialState: NotificationSettings.State()) {
      NotificationSettings()
    } withDependencies: {
      $0.preferencesClient.save = { _ in throw Offline() }
    }
    store.exhaustivity = .off

    await store.send(.set(\.$mentionsOnly, true))
    await store.receive(.saveFailed)
    store.assert {
      $0.mentionsOnly = true
      $0.saveError = "Couldn't save your settings."
    }
  }
}
