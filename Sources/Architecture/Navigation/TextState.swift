import Foundation

/// Text as data, for the titles, messages and button labels of ``AlertState`` and
/// ``ConfirmationDialogState``: equatable, hashable and codable where SwiftUI's `Text` is not.
///
/// ```swift
/// TextState("Delete \"\(item.name)\"?")
/// TextState("Warning: ").bold() + TextState("this cannot be undone.")
/// ```
///
/// Without SwiftUI the styling modifiers only record themselves: they take part in equality,
/// encoding and dumps (bold as `**…**`, italic as `_…_`, strikethrough as `~~…~~`), and
/// ``Swift/String/init(state:)`` returns the plain text. There is no localization: a string is
/// always shown verbatim, so `TextState("Hi")` equals `TextState(verbatim: "Hi")`.
public struct TextState: Hashable, Sendable {
  indirect enum Storage: Hashable, Sendable {
    case verbatim(String)
    case concatenated(TextState, TextState)
  }

  /// A styling modifier, recorded in the order applied.
  enum Modifier: Hashable, Sendable {
    case baselineOffset(Double)
    case bold(isActive: Bool)
    case italic
    case kerning(Double)
    case monospacedDigit
    case strikethrough(isActive: Bool)
    case tracking(Double)
    case underline(isActive: Bool)
  }

  var storage: Storage
  var modifiers: [Modifier] = []

  init(storage: Storage, modifiers: [Modifier] = []) {
    self.storage = storage
    self.modifiers = modifiers
  }

  /// Text showing `content` as it is.
  public init(verbatim content: String) {
    self.init(storage: .verbatim(content))
  }

  /// Text showing `content`; there is no localization on Linux, so it is shown as it is.
  @_disfavoredOverload
  public init<S: StringProtocol>(_ content: S) {
    self.init(storage: .verbatim(String(content)))
  }

  /// Text showing `content`, as `TextState("Title")` writes it.
  public init(_ content: String) {
    self.init(storage: .verbatim(content))
  }

  /// Joins two texts, keeping each one's styling.
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(storage: .concatenated(lhs, rhs))
  }

  private func adding(_ modifier: Modifier) -> Self {
    var text = self
    text.modifiers.append(modifier)
    return text
  }

  /// The text, shown bold.
  public func bold() -> Self { adding(.bold(isActive: true)) }
  /// The text, bold or not.
  public func bold(isActive: Bool) -> Self { adding(.bold(isActive: isActive)) }
  /// The text, shown italic.
  public func italic() -> Self { adding(.italic) }
  /// The text, with digits of equal width.
  public func monospacedDigit() -> Self { adding(.monospacedDigit) }
  /// The text, struck through or not.
  public func strikethrough(_ isActive: Bool = true) -> Self {
    adding(.strikethrough(isActive: isActive))
  }
  /// The text, underlined or not.
  public func underline(_ isActive: Bool = true) -> Self { adding(.underline(isActive: isActive)) }
  /// The text, moved up by `offset` points.
  public func baselineOffset(_ offset: Double) -> Self { adding(.baselineOffset(offset)) }
  /// The text, with `kerning` points between characters.
  public func kerning(_ kerning: Double) -> Self { adding(.kerning(kerning)) }
  /// The text, with `tracking` points of tracking.
  public func tracking(_ tracking: Double) -> Self { adding(.tracking(tracking)) }
}

extension TextState: ExpressibleByStringLiteral {
  /// Text showing the literal.
  public init(stringLiteral value: String) {
    self.init(verbatim: value)
  }
}

extension TextState: CustomStringConvertible {
  /// The plain text, without styling.
  public var description: String { String(state: self) }
}

extension String {
  /// The plain text of `state`, without styling.
  ///
  /// ```swift
  /// String(state: alert.title)  // "Delete?"
  /// ```
  public init(state: TextState, locale: Locale? = nil) {
    switch state.storage {
    case .verbatim(let string): self = string
    case .concatenated(let lhs, let rhs): self = String(state: lhs) + String(state: rhs)
    }
  }
}

extension TextState: CustomDumpRepresentable {
  /// The text with markdown-like markers for bold, italic and strikethrough, as dumps show it.
  package var customDumpValue: Any { markedText }

  var markedText: String {
    var text =
      switch storage {
      case .verbatim(let string): string
      case .concatenated(let lhs, let rhs): lhs.markedText + rhs.markedText
      }
    for modifier in modifiers {
      switch modifier {
      case .bold(isActive: true): text = "**\(text)**"
      case .italic: text = "_\(text)_"
      case .strikethrough(isActive: true): text = "~~\(text)~~"
      default: break
      }
    }
    return text
  }
}
