import Architecture

/// Looks a book up by its ISBN.
///
/// A real app would ask a catalogue service; these examples run without a network, so the live
/// client answers from a small built-in table after a short wait on the clock, and fails for an
/// ISBN it does not know.
public struct BookCatalogClient: Sendable {
  /// The title and author of the book with this ISBN; throws ``BookCatalogError`` if unknown.
  public var lookUp: @Sendable (_ isbn: String) async throws -> BookInfo

  public init(lookUp: @escaping @Sendable (_ isbn: String) async throws -> BookInfo) {
    self.lookUp = lookUp
  }
}

/// What the catalogue knows about a book.
public struct BookInfo: Equatable, Codable, Sendable {
  public var title: String
  public var author: String

  public init(title: String, author: String) {
    self.title = title
    self.author = author
  }
}

/// Why a look-up found nothing.
public enum BookCatalogError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The catalogue has no book with this ISBN.
  case notFound(isbn: String)

  public var description: String {
    switch self {
    case let .notFound(isbn): "No book with ISBN \(isbn) is in the catalogue."
    }
  }
}

extension BookCatalogClient: DependencyKey {
  /// The offline catalogue: a fixed table, answered after 300 ms on the clock.
  public static let liveValue = BookCatalogClient { isbn in
    @Dependency(\.continuousClock) var clock
    try await clock.sleep(for: .milliseconds(300))
    guard let info = BuiltInCatalog.books[isbn] else {
      throw BookCatalogError.notFound(isbn: isbn)
    }
    return info
  }

  /// Reports a look-up that a test did not expect: tests override `lookUp`.
  public static let testValue = BookCatalogClient(
    lookUp: unimplemented("BookCatalogClient.lookUp")
  )
}

extension DependencyValues {
  /// Looks books up by ISBN.
  public var bookCatalog: BookCatalogClient {
    get { self[BookCatalogClient.self] }
    set { self[BookCatalogClient.self] = newValue }
  }
}

/// The books the live catalogue knows, by 13-digit ISBN.
public enum BuiltInCatalog {
  /// Every book the live client can find.
  public static let books: [String: BookInfo] = [
    "9780141439518": BookInfo(title: "Pride and Prejudice", author: "Jane Austen"),
    "9780141441146": BookInfo(title: "Jane Eyre", author: "Charlotte Brontë"),
    "9780140449136": BookInfo(title: "Crime and Punishment", author: "Fyodor Dostoevsky"),
    "9780141439600": BookInfo(title: "A Tale of Two Cities", author: "Charles Dickens"),
    "9780141439556": BookInfo(title: "Wuthering Heights", author: "Emily Brontë"),
    "9780140447934": BookInfo(title: "War and Peace", author: "Leo Tolstoy"),
    "9780141439846": BookInfo(title: "Dracula", author: "Bram Stoker"),
    "9780141439471": BookInfo(title: "Frankenstein", author: "Mary Shelley"),
  ]
}
