import Architecture
import Foundation

/// A book's screen on the navigation stack: a reading-session timer, and buttons that open the
/// book's notes and ask to delete it.
///
/// The timer is a long-living effect on the clock. Popping the screen while it runs cancels it:
/// the stack's `forEach` cancels a popped element's effects.
public struct BookDetailFeature: Reducer, Sendable {
  /// The book as this screen knows it, and the reading session in progress.
  public struct State: Equatable, Codable, Sendable {
    public var book: Book
    public var isReading: Bool
    /// Seconds in the current (or last) reading session.
    public var sessionSeconds: Int

    public init(book: Book, isReading: Bool = false, sessionSeconds: Int = 0) {
      self.book = book
      self.isReading = isReading
      self.sessionSeconds = sessionSeconds
    }
  }

  /// The screen's buttons and the timer's ticks.
  public enum Action: Equatable, Codable, Sendable {
    /// Asks the shelf to confirm and delete the book; the shelf shows the alert.
    case deleteButtonTapped
    /// Asks the shelf to push the book's notes.
    case notesButtonTapped
    case startReadingButtonTapped
    /// Ends the reading session; the shelf keeps the book's new reading time.
    case stopReadingButtonTapped
    case timerTicked
  }

  enum CancelID { case readingTimer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped, .notesButtonTapped:
        return .none

      case .startReadingButtonTapped:
        guard !state.isReading else { return .none }
        state.isReading = true
        state.sessionSeconds = 0
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.readingTimer, cancelInFlight: true)

      case .stopReadingButtonTapped:
        guard state.isReading else { return .none }
        state.isReading = false
        state.book.lastReadAt = now
        // The shelf reads the updated book from this action, after this reducer has run. A
        // delegate action sent from here would race the timer's cancellation in the trace.
        return .cancel(id: CancelID.readingTimer)

      case .timerTicked:
        state.sessionSeconds += 1
        state.book.secondsRead += 1
        return .none
      }
    }
  }
}
