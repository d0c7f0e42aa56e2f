import Architecture
import Foundation
import Recorder

/// A journal that none of the examples resembles: a text that autosaves a second after the
/// last keystroke, a sync timer, a timestamp button and a sign-up email. Its effects use
/// cancellation both ways (`cancelInFlight` and `.cancel(id:)`), and it reads the date.
public struct JournalFeature: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var text = ""
    public var savedText: String?
    public var isSyncing = false
    public var syncTicks = 0
    public var stampedAt: Date?
    public var email = ""
    public var isEmailValid = false
    public var signUpMessage: String?
    public init() {}
  }

  public enum Action: Codable, Equatable, Sendable {
    case textChanged(String)
    case saved(String)
    case syncStarted
    case syncTick
    case syncStopped
    case stampTapped
    case emailChanged(email: String)
    case signUpTapped
  }

  /// The journal's cancellation ids.
  public enum CancelID: Hashable, Sendable { case save, sync }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date) var date

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .textChanged(text):
      state.text = text
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.saved(text))
      }
      .cancellable(id: CancelID.save, cancelInFlight: true)
    case let .saved(text):
      state.savedText = text
      return .none
    case .syncStarted:
      state.isSyncing = true
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.syncTick) }
      }
      .cancellable(id: CancelID.sync)
    case .syncTick:
      state.syncTicks += 1
      return .none
    case .syncStopped:
      state.isSyncing = false
      return .cancel(id: CancelID.sync)
    case .stampTapped:
      state.stampedAt = date.now
      return .none
    case let .emailChanged(email: email):
      state.email = email
      state.isEmailValid =
        email.contains("@") && email.split(separator: "@").last?.contains(".") == true
      return .none
    case .signUpTapped:
      state.signUpMessage = state.isEmailValid ? "Welcome!" : "Check your email address."
      return .none
    }
  }

  /// A session that uses every action: two debounced saves, a sync timer started and stopped,
  /// a timestamp, an email and a sign-up.
  public static let session: [Action] = [
    .textChanged("H"), .textChanged("Hi"), .saved("Hi"), .syncStarted, .syncTick, .stampTapped,
    .emailChanged(email: "ada@example.com"), .syncTick, .syncStopped, .signUpTapped,
    .textChanged("Hi!"), .saved("Hi!"),
  ]
}

/// Changed journals, each with one change to its effects, its dependency reads or its state.
public enum JournalMutant: String, CaseIterable, Sendable {
  /// Today's journal, unchanged.
  case unchanged = "journal-unchanged"
  /// Typing no longer starts the debounced save.
  case droppedSave = "journal-dropped-save"
  /// The save no longer cancels the save in flight.
  case droppedCancelInFlight = "journal-dropped-cancel-in-flight"
  /// Stopping the sync cancels the save instead of the sync timer.
  case wrongCancelID = "journal-wrong-cancel-id"
  /// The timestamp reads the date twice and keeps the second reading.
  case extraDateRead = "journal-extra-date-read"
  /// Sign-up greets differently: a change that reads no redacted data.
  case changedSignUp = "journal-changed-sign-up"

  /// The first steps of ``JournalFeature/session`` where this mutant diverges.
  public var divergentSteps: [Int] {
    switch self {
    case .unchanged: []
    case .droppedSave, .droppedCancelInFlight: [0, 1, 10]
    case .wrongCancelID: [8]
    case .extraDateRead: [5]
    case .changedSignUp: [9]
    }
  }

  /// The reducer, as a replay target.
  public var target: ReplayTarget {
    switch self {
    case .unchanged: ReplayTarget(JournalFeature())
    case .droppedSave, .droppedCancelInFlight, .wrongCancelID, .changedSignUp:
      ReplayTarget(ChangedJournal(mutant: self))
    case .extraDateRead: ReplayTarget(DoubleStampJournal())
    }
  }
}

/// ``JournalMutant``s that change what the journal returns or greets with.
public struct ChangedJournal: Reducer, Sendable {
  let mutant: JournalMutant
  @Dependency(\.continuousClock) var clock

  public init(mutant: JournalMutant) { self.mutant = mutant }

  public func reduce(
    into state: inout JournalFeature.State, action: JournalFeature.Action
  ) -> Effect<JournalFeature.Action> {
    let effect = JournalFeature().reduce(into: &state, action: action)
    switch (mutant, action) {
    case (.droppedSave, .textChanged):
      return .none
    case let (.droppedCancelInFlight, .textChanged(text)):
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.saved(text))
      }
      .cancellable(id: JournalFeature.CancelID.save)
    case (.wrongCancelID, .syncStopped):
      return .cancel(id: JournalFeature.CancelID.save)
    case (.changedSignUp, .signUpTapped):
      state.signUpMessage = state.isEmailValid ? "Welcome aboard!" : state.signUpMessage
      return effect
    default:
      return effect
    }
  }
}

/// ``JournalMutant/extraDateRead``: reads `date.now` twice; the state is the same, since the
/// second reading is the same instant.
public struct DoubleStampJournal: Reducer, Sendable {
  @Dependency(\.date) var date
  public init() {}

  public func reduce(
    into state: inout JournalFeature.State, action: JournalFeature.Action
  ) -> Effect<JournalFeature.Action> {
    guard action == .stampTapped else {
      return JournalFeature().reduce(into: &state, action: action)
    }
    _ = date.now
    state.stampedAt = date.now
    return .none
  }
}
