import Foundation

/// Finds, in the app's sources, the line inside a `Reduce` closure that writes a path: the
/// host knows where the closure was built, not where in it the write is.
///
/// A heuristic on the text: the closure's braces from the line the frame names, the `case` of
/// the action's innermost case name, then the first line there that assigns or mutates the
/// path's last property (`state.title = …`, `.toggle()`, `.append(`, `+= 1`). `nil` when the
/// source is not under the current folder or no line matches.
struct WriteLocator {
  private var files: [String: [String]?] = [:]
  private let root: String

  init(root: String = FileManager.default.currentDirectoryPath) {
    self.root = root
  }

  /// The line writing `path` in the closure built at `line` of `fileID`, for action `label`.
  mutating func line(
    writing path: [String], in fileID: String, at line: Int, label: String
  ) -> Int? {
    guard let lines = source(fileID), line >= 1, line <= lines.count else { return nil }
    guard let end = Self.closureEnd(lines, from: line - 1) else { return nil }
    let body = (line - 1)...end
    // The innermost case the label names that the closure has a `case` for.
    let names = Self.caseNames(label)
    var range = body
    for name in names.reversed() {
      guard let start = body.first(where: { Self.isCase(lines[$0], named: name) }) else { continue }
      let next = body.first { $0 > start && lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("case ") }
      range = start...((next ?? end + 1) - 1)
      break
    }
    let keys = path.filter { Int($0) == nil && $0 != "_0" && $0 != "element" }
    for key in keys.reversed() {
      if let found = range.first(where: { Self.writes(lines[$0], key) }) { return found + 1 }
    }
    // An enum state moved to another case: `state = .signedIn(…)`.
    if let found = range.first(where: { Self.assignsWhole(lines[$0]) }) { return found + 1 }
    return nil
  }

  private mutating func source(_ fileID: String) -> [String]? {
    if let known = files[fileID] { return known }
    let parts = fileID.split(separator: "/").map(String.init)
    let name = parts.last ?? fileID
    let module = parts.count > 1 ? parts[0] : ""
    var found: [String] = []
    if let walker = FileManager.default.enumerator(atPath: root) {
      while let relative = walker.nextObject() as? String {
        let last = (relative as NSString).lastPathComponent
        if last.hasPrefix(".") { walker.skipDescendants(); continue }
        if last == name { found.append(relative) }
        if found.count > 20 { break }
      }
    }
    let best = found.first { $0.split(separator: "/").contains(Substring(module)) } ?? found.first
    let text = best.flatMap {
      try? String(contentsOfFile: (root as NSString).appendingPathComponent($0), encoding: .utf8)
    }
    let lines = text.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    files[fileID] = .some(lines)
    return lines
  }

  /// The line holding the brace that closes the first `{` on line `start`.
  static func closureEnd(_ lines: [String], from start: Int) -> Int? {
    var depth = 0
    var opened = false
    for index in start..<lines.count {
      var inString = false
      for character in lines[index] {
        if character == "\"" { inString.toggle() }
        if inString { continue }
        if character == "{" { depth += 1; opened = true }
        if character == "}" { depth -= 1 }
        if opened, depth == 0 { return index }
      }
      if let comment = lines[index].range(of: "//"), !opened { _ = comment }
    }
    return nil
  }

  /// `.todo(id: …, action: .titleChanged("B"))`: `todo`, `titleChanged`.
  static func caseNames(_ label: String) -> [String] {
    var names: [String] = []
    var rest = Substring(label)
    while let dot = rest.firstIndex(of: ".") {
      rest = rest[rest.index(after: dot)...]
      let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      if let first = name.first, first.isLetter, first.isLowercase { names.append(String(name)) }
    }
    return names
  }

  private static func isCase(_ line: String, named name: String) -> Bool {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("case ") else { return false }
    return trimmed.contains(".\(name)(") || trimmed.contains(".\(name):")
      || trimmed.contains(".\(name),") || trimmed.hasSuffix(".\(name)")
      || trimmed.contains(".\(name) ")
  }

  private static let mutations = [
    " = ", " += ", " -= ", " *= ", " /= ", ".toggle()", ".append(", ".insert(", ".remove(",
    ".removeAll(", ".removeLast(", ".removeFirst(", ".pop(", ".sort(", ".move(",
  ]

  /// Whether `line` assigns or mutates the property `key`.
  private static func writes(_ line: String, _ key: String) -> Bool {
    guard let range = line.range(of: ".\(key)") ?? line.range(of: "$\(key)") else { return false }
    let after = line[range.upperBound...]
    if let next = after.first, next.isLetter || next.isNumber || next == "_" { return false }
    let code = line.components(separatedBy: "//")[0]
    return mutations.contains { code[range.lowerBound...].contains($0) }
      && !code.contains("==")
  }

  private static func assignsWhole(_ line: String) -> Bool {
    line.trimmingCharacters(in: .whitespaces).hasPrefix("state = ")
  }
}
