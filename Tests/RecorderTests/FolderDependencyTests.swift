import Foundation
import Testing

/// Recorder's folders are layers: a folder may use the types of the folders before it in
/// ``layers``, never those after it. JSON is the `TraceJSON` target (`Sources/TraceJSON`), below
/// all of them, and the compiler keeps it apart.
///
/// | folder           | may use                                      |
/// |------------------|----------------------------------------------|
/// | `Trace`          | TraceJSON                                    |
/// | `Writer`         | Trace                                        |
/// | `Recording`      | Trace, Writer                                |
/// | `Reading`        | Trace, Writer, Recording                     |
/// | `Replay`         | Trace, Writer, Recording, Reading            |
/// | `TestGeneration` | Trace, Writer, Recording, Reading, Replay    |
@Suite("Recorder's folders")
struct FolderDependencyTests {
  static let layers = ["Reflection", "Trace", "Writer", "Recording", "Reading", "Replay", "TestGeneration"]

  static let recorderRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/Recorder")

  @Test("every source file sits in a folder of the layer order")
  func everyFileHasALayer() throws {
    let entries = try FileManager.default.contentsOfDirectory(atPath: Self.recorderRoot.path)
    let unplaced = entries.filter { !Self.layers.contains($0) }.sorted()
    #expect(unplaced == [], "Add these to FolderDependencyTests.layers, or move them into one.")
  }

  @Test("no folder names a type declared in a folder after it in the layer order")
  func noFolderUsesALaterOne() throws {
    var sources: [String: [(file: String, text: String)]] = [:]
    for folder in Self.layers {
      let directory = Self.recorderRoot.appendingPathComponent(folder)
      let files = FileManager.default.enumerator(atPath: directory.path)?
        .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
      sources[folder] = try files.sorted().map { file in
        (file, try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8))
      }
    }
    let violations = SourceLayers(layers: Self.layers, sources: sources).violations()
    #expect(violations == [], "A folder uses a later one; move the type down or the use up.")
  }

  @Test("the scan finds a use of a later folder's type, and ignores comments and strings")
  func scanFindsAnUpwardUse() {
    let sources: [String: [(file: String, text: String)]] = [
      "Low": [
        ("A.swift", "struct Low { var high: High? }\n// High in a comment\nlet s = \"High\""),
        ("B.swift", "enum Local { struct Chunk {} }\nlet chunk = Chunk()\nlet kind: Kind"),
      ],
      "High": [
        ("C.swift", "final class High { let low = Low() }\nstruct Chunk {}"),
        ("D.swift", "extension High { enum Kind {} }"),
      ],
    ]
    let violations = SourceLayers(layers: ["Low", "High"], sources: sources).violations()
    #expect(violations == ["Low/A.swift uses High (High)"])
  }
}

/// A source scan: the type names each folder declares at the top level, and the capitalised
/// identifiers each file uses outside comments and string literals.
struct SourceLayers {
  let layers: [String]
  let sources: [String: [(file: String, text: String)]]

  /// `Folder/File.swift uses Type (OwnerFolder)` for each use of a later folder's top-level type
  /// that the using folder does not declare itself (nested types share names such as `Chunk`).
  func violations() -> [String] {
    var topLevel: [String: Set<String>] = [:]
    var declared: [String: Set<String>] = [:]
    var used: [String: [(file: String, names: Set<String>)]] = [:]
    for folder in layers {
      for (file, text) in sources[folder] ?? [] {
        let scan = Self.scan(text)
        topLevel[folder, default: []].formUnion(scan.topLevel)
        declared[folder, default: []].formUnion(scan.declared)
        used[folder, default: []].append((file, scan.used))
      }
    }
    var found: [String] = []
    for (position, folder) in layers.enumerated() {
      let later = layers[(position + 1)...]
      for (file, names) in used[folder] ?? [] {
        for name in names.sorted() where !(declared[folder] ?? []).contains(name) {
          for owner in later where (topLevel[owner] ?? []).contains(name) {
            found.append("\(folder)/\(file) uses \(name) (\(owner))")
          }
        }
      }
    }
    return found
  }

  /// The type names `text` declares (outside any braces, and anywhere) and the capitalised
  /// identifiers it uses.
  static func scan(
    _ text: String
  ) -> (topLevel: Set<String>, declared: Set<String>, used: Set<String>) {
    let bytes = Array(text.utf8)
    var topLevel: Set<String> = []
    var declared: Set<String> = []
    var depth = 0
    var used: Set<String> = []
    var previous = ""
    var index = 0
    func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
    func isIdentifier(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "_") || (48...57).contains(byte) || (97...122).contains(byte | 0x20)
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "/") {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
      } else if byte == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
        index += 2
        while index < bytes.count, bytes[index] != UInt8(ascii: "*") || at(1) != UInt8(ascii: "/") {
          index += 1
        }
        index += 2
      } else if byte == UInt8(ascii: "\"") {
        let isMultiline = at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"")
        index += isMultiline ? 3 : 1
        while index < bytes.count {
          if bytes[index] == UInt8(ascii: "\\") {
            index += 2
          } else if isMultiline, bytes[index] == UInt8(ascii: "\""), at(1) == UInt8(ascii: "\""),
            at(2) == UInt8(ascii: "\"")
          {
            index += 3
            break
          } else if !isMultiline, bytes[index] == UInt8(ascii: "\"") || bytes[index] == 10 {
            index += 1
            break
          } else {
            index += 1
          }
        }
      } else if isIdentifier(byte), !(index > 0 && isIdentifier(bytes[index - 1])) {
        let start = index
        while index < bytes.count, isIdentifier(bytes[index]) { index += 1 }
        let word = String(decoding: bytes[start..<index], as: UTF8.self)
        if let first = word.utf8.first, (65...90).contains(first) {
          if ["struct", "enum", "class", "protocol", "typealias", "actor"].contains(previous) {
            declared.insert(word)
            if depth == 0 { topLevel.insert(word) }
          } else {
            used.insert(word)
          }
        }
        previous = word
      } else {
        if byte == UInt8(ascii: "{") { depth += 1 }
        if byte == UInt8(ascii: "}") { depth -= 1 }
        index += 1
      }
    }
    return (topLevel, declared, used)
  }
}
