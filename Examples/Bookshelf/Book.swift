import Architecture
import Foundation

/// A book on the shelf: what it is, when it was added, how long it has been read and the
/// reader's notes about it.
///
/// Its id comes from `@Dependency(\.uuid)` and its dates from `@Dependency(\.date)`, so tests
/// and replays can predict both.
public struct Book: Equatable, Codable, Sendable, Identifiable {
  public let id: UUID
  public var title: String
  public var author: String
  /// The ISBN as the reader typed it; may be empty.
  public var isbn: String
  /// When the book was put on the shelf.
  public var addedAt: Date
  /// Seconds spent reading it, counted by the detail screen's reading timer.
  public var secondsRead: Int
  /// When the last reading session ended; `nil` until the book has been read.
  public var lastReadAt: Date?
  /// The reader's notes, saved by the notes screen.
  public var notes: String

  public init(
    id: UUID,
    title: String,
    author: String = "",
    isbn: String = "",
    addedAt: Date,
    secondsRead: Int = 0,
    lastReadAt: Date? = nil,
    notes: String = ""
  ) {
    self.id = id
    self.title = title
    self.author = author
    self.isbn = isbn
    self.addedAt = addedAt
    self.secondsRead = secondsRead
    self.lastReadAt = lastReadAt
    self.notes = notes
  }
}
