import Foundation
import TestSupport
import Testing

/// The action list's short labels (`Viewer/Assets/label.js`), run in `node` with a row as wide as
/// a number of characters: a label keeps its end, where the steps of a run differ.
@Suite(
  "The viewer's short labels",
  .enabled(if: ViewerAssetsTests.node != nil, "node is not installed"))
struct ViewerLabelTests {
  /// `ViewerLabel.shorten(label)` in a row that fits `width` characters.
  static func shorten(_ label: String, width: Int) throws -> String {
    let script = ViewerAssetsTests.assets.appendingPathComponent("label.js").path
    let driver = """
      const label = require(process.argv[1]);
      const [text, width] = JSON.parse(require("fs").readFileSync(0, "utf8"));
      process.stdout.write(label.shorten(text, (t) => Array.from(t).length <= width));
      """
    let input = try JSONSerialization.data(withJSONObject: [label, width] as [Any])
    let result = try ChildProcess.run(
      try #require(ViewerAssetsTests.node), ["-e", driver, script], input: input, timeLimit: 60)
    #expect(result.status == 0, "\(String(decoding: result.errors, as: UTF8.self))")
    return String(decoding: result.output, as: UTF8.self)
  }

  static let isbn = #".destination(.presented(.addBook(.binding(.set(\.$isbn, "978-0-14-1")))))"#

  @Test(
    "peels enclosing cases from the outside, as few as fit, naming the last one peeled",
    arguments: [
      (80, isbn),
      (60, #"…presented › .addBook(.binding(.set(\.$isbn, "978-0-14-1")))"#),
      (50, #"…addBook › .binding(.set(\.$isbn, "978-0-14-1"))"#),
      (40, #"…binding › .set(\.$isbn, "978-0-14-1")"#),
      // The innermost case alone is too wide: its middle goes, its end stays.
      (20, #"….set(…"978-0-14-1")"#),
    ])
  func peels(width: Int, expected: String) throws {
    #expect(try Self.shorten(Self.isbn, width: width) == expected)
  }

  @Test("keeps a peeled case's other arguments when they fit: they tell elements apart")
  func otherArguments() throws {
    let label = #".todo(id: 0000…0001, action: .titleChanged("Call the "))"#
    #expect(
      try Self.shorten(label, width: 52) == #"…todo(id: 0000…0001) › .titleChanged("Call the ")"#)
    #expect(try Self.shorten(label, width: 40) == #"…todo › .titleChanged("Call the ")"#)
  }

  @Test(
    "cuts the middle of a label that is no chain of cases",
    arguments: [
      (#".move(fromOffsets: {indexes: […]}, toOffset: 2)"#, 20, ".move(… toOffset: 2)"),
      // A case followed by more text is not one case: `.a(x).b` peels nothing.
      (#".a(.b(1)).c(.d(2))"#, 12, ".a(…c(.d(2))"),
      // Unbalanced: nothing to peel.
      (".a(.b(.c(", 6, ".…(.c(")
    ])
  func middle(label: String, width: Int, expected: String) throws {
    #expect(try Self.shorten(label, width: width) == expected)
  }

  @Test("shows control and bidi characters as \\u{…}, so a label cannot reorder the row")
  func invisible() throws {
    #expect(
      try Self.shorten(".typed(\"a\u{202E}b\u{0}c\u{7}\u{2066}\n\")", width: 100)
        == #".typed("a\u{202E}b\u{0}c\u{7}\u{2066}\u{A}")"#)
  }

  @Test("cuts a 100,000-character label in the middle without peeling it, keeping its end")
  func longPayload() throws {
    let label = ".room(.paste(\"" + String(repeating: "0123456789", count: 10_000) + "\"))"
    #expect(try Self.shorten(label, width: 30) == #".room(.pa…34567890123456789"))"#)
  }
}
