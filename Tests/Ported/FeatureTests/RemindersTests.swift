import Architecture
import XCTest

@testable import PortedFeatures

@MainActor
final class RemindersTests: XCTestCase {
  func testReminderIsDueAtNineTomorrowInTheUsersTimeZone() async {
    let scheduled = LockIsolated<[String]>([])
    let store = TestStore(initialState: Reminders.State()) {
      Reminders()
    } withDependencies: {
      $0.calendar = Calendar(identifier: .gregorian)
      // Tuesday 14 November 2023, 22:13 UTC: already Wednesday morning in Tokyo.
      $0.date.now = Date(timeIntervalSince1970: 1_700_000_000)
      $0.locale = Locale(identifier: "fr_FR")
      $0.timeZone = TimeZone(identifier: "Asia/Tokyo")!
      $0.uuid = .incrementing
      $0.reminderScheduler.schedule = { title, _ in
        scheduled.withValue { $0.append(title) }
      }
    }

    await store.send(.addButtonTapped(title: "Water the fern")) {
      $0.reminders = [
        Reminder(
          id: UUID(0),
          title: "Water the fern",
          // Thursday 16 November, 09:00 in Tokyo.
          due: Date(timeIntervalSince1970: 1_700_092_800),
          dayName: "jeudi"
        )
      ]
    }
    await store.receive(.scheduled(.success(UUID(0))))
    XCTAssertEqual(scheduled.value, ["Water the fern"])
  }

  func testTheSameMomentInLondonIsDueOnWednesday() async {
    let store = TestStore(initialState: Reminders.State()) {
      Reminders()
    } withDependencies: {
      $0.calendar = Calendar(identifier: .gregorian)
      $0.date.now = Date(timeIntervalSince1970: 1_700_000_000)
      $0.locale = Locale(identifier: "en_GB")
      $0.timeZone = TimeZone(identifier: "Europe/London")!
      $0.uuid = .incrementing
      $0.reminderScheduler.schedule = { _, _ in }
    }

    await store.send(.addButtonTapped(title: "Call the nursery")) {
      $0.reminders = [
        Reminder(
          id: UUID(0),
          title: "Call the nursery",
          due: Date(timeIntervalSince1970: 1_700_038_800),
          dayName: "Wednesday"
        )
      ]
    }
    await store.receive(.scheduled(.success(UUID(0))))
  }

  func testSchedulingFailureIsShown() async {
    struct NotAllowed: Error {}
    let store = TestStore(initialState: Reminders.State()) {
      Reminders()
    } withDependencies: {
      $0.calendar = Calendar(identifier: .gregorian)
      $0.date.now = Date(timeIntervalSince1970: 1_700_000_000)
      $0.locale = Locale(identifier: "en_US_POSIX")
      $0.timeZone = TimeZone(secondsFromGMT: 0)!
      $0.uuid = .incrementing
      $0.reminderScheduler.schedule = { _, _ in throw NotAllowed() }
    }

    await store.send(.addButtonTapped(title: "Repot the rosemary")) {
      $0.reminders = [
        Reminder(
          id: UUID(0),
          title: "Repot the rosemary",
          due: Date(timeIntervalSince1970: 1_700_038_800),
          dayName: "Wednesday"
        )
      ]
    }
    await store.receive(.scheduled(.failure(NotAllowed()))) {
      $0.scheduleFailed = true
    }
    guard let reminder = store.state.reminders.first else {
      return XCTFail("The reminder was not kept")
    }
    XCTAssertEqual(reminder.dayName, "Wednesday")
  }

  func testDateNowCanBeSetInWithDependencies() {
    withDependencies {
      $0.date.now = Date(timeIntervalSinceReferenceDate: 0)
    } operation: {
      @Dependency(\.date.now) var now
      XCTAssertEqual(now, Date(timeIntervalSinceReferenceDate: 0))
    }
  }
}
