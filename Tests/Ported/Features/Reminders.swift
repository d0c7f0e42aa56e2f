import Architecture

/// A list of reminders, each due at nine the next morning in the user's time zone, labelled with
/// the weekday name in the user's language.
struct Reminders: Reducer {
  struct State: Equatable {
    var reminders: IdentifiedArrayOf<Reminder> = []
    var scheduleFailed = false
  }

  enum Action: Equatable {
    case addButtonTapped(title: String)
    case scheduled(TaskResult<UUID>)
  }

  @Dependency(\.calendar) var calendar
  @Dependency(\.date.now) var now
  @Dependency(\.locale) var locale
  @Dependency(\.reminderScheduler) var scheduler
  @Dependency(\.timeZone) var timeZone
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .addButtonTapped(title):
        var calendar = self.calendar
        calendar.timeZone = self.timeZone
        guard
          let tomorrow = calendar.date(byAdding: .day, value: 1, to: self.now),
          let due = calendar.date(bySettingHour: 9, minute: 0, second: 0, of: tomorrow)
        else {
          XCTFail("No nine o'clock tomorrow in \(calendar.identifier)")
          return .none
        }
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.locale = self.locale
        formatter.timeZone = self.timeZone
        formatter.dateFormat = "EEEE"
        let reminder = Reminder(
          id: self.uuid(), title: title, due: due, dayName: formatter.string(from: due)
        )
        state.reminders.append(reminder)
        return .run { [scheduler] send in
          await send(
            .scheduled(
              TaskResult {
                try await scheduler.schedule(reminder.title, reminder.due)
                return reminder.id
              }
            )
          )
        }

      case .scheduled(.success):
        return .none

      case .scheduled(.failure):
        state.scheduleFailed = true
        return .none
      }
    }
  }
}
