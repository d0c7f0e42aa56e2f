import Architecture

/// Something to be reminded of, and when.
struct Reminder: Equatable, Identifiable {
  var id: UUID
  var title: String
  var due: Date
  var dayName: String
}

/// Schedules the local notification of a reminder.
struct ReminderScheduler {
  var schedule: @Sendable (_ title: String, _ date: Date) async throws -> Void
}

// The key declares only its live value: `Value` is the client, inferred from `liveValue`.
private enum ReminderSchedulerKey: DependencyKey {
  static let liveValue = ReminderScheduler(schedule: { _, _ in })
}

extension DependencyValues {
  var reminderScheduler: ReminderScheduler {
    get { self[ReminderSchedulerKey.self] }
    set { self[ReminderSchedulerKey.self] = newValue }
  }
}
