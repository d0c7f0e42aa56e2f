#if canImport(Glibc)
  import Glibc
#endif

/// How output is decorated: ANSI colour on a terminal, plain text anywhere else.
///
/// Colour is used only when standard output is a terminal, `NO_COLOR` is unset or empty
/// (https://no-color.org), and `TERM` is not `dumb`.
struct Style: Sendable {
  var usesColor: Bool

  static let plain = Style(usesColor: false)

  /// The style for standard output in this process's environment.
  static func forStandardOutput() -> Style {
    let noColor = getenv("NO_COLOR").map { String(cString: $0) } ?? ""
    let term = getenv("TERM").map { String(cString: $0) } ?? ""
    return Style(usesColor: isatty(1) == 1 && noColor.isEmpty && term != "dumb")
  }

  enum Color: String {
    case red = "31"
    case green = "32"
    case yellow = "33"
    case blue = "34"
    case magenta = "35"
    case cyan = "36"
    case dim = "2"
    case bold = "1"
  }

  /// `text` in `color`, when the style uses colour.
  ///
  /// The escape codes carry ``key`` after their ESC: ``TerminalText/rendered(_:escape:)``, which
  /// every write goes through, passes those (dropping the key) and escapes any other ESC, such
  /// as one a trace holds.
  func paint(_ text: String, _ color: Color) -> String {
    usesColor ? "\u{1B}\(Self.key)[\(color.rawValue)m\(text)\u{1B}\(Self.key)[0m" : text
  }

  /// Marks the escape codes this process makes: random, so text from a trace cannot hold it.
  static let key: String = {
    var generator = SystemRandomNumberGenerator()
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return String((0..<24).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
  }()
}
