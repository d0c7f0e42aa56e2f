import Foundation

/// How long a generated test file is, measured by its `// Step N` markers.
///
/// A step's block is its `send` or `receive` (the line a marker is on, or the statement a
/// marker line stands above, to its closing bracket), with the lines between it and the
/// previous step's block (clock advances, settings, comments) and the `await stepN.finish()`
/// lines right after it.
public struct GeneratedTestSize: Sendable {
  /// The lines of each step's block, by step number.
  public var linesByStep: [Int: Int]
  /// The 0-based line ranges of each step's block, by step number.
  var blocks: [Int: ClosedRange<Int>]
  /// The whole file's lines.
  public var fileLines: Int
  /// The steps the trace recorded.
  public var steps: Int

  /// Measures `text`, the generated file of a trace of `steps` steps.
  public init(text: String, steps: Int) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    fileLines = lines.last == "" ? lines.count - 1 : lines.count
    self.steps = steps
    blocks = Self.blocks(of: lines)
    linesByStep = blocks.mapValues(\.count)
  }

  static func blocks(of lines: [Substring]) -> [Int: ClosedRange<Int>] {
    var blocks: [Int: ClosedRange<Int>] = [:]
    var pending: Int?  // The first line not yet in a block, inside a function.
    var index = 0
    while index < lines.count {
      let line = lines[index]
      let trimmed = line.drop { $0 == " " }
      let indent = line.prefix { $0 == " " }.count
      // A function's start or end: its setup and tail belong to no step.
      if trimmed.hasPrefix("func ") || trimmed.hasPrefix("@Test")
        || (trimmed.hasPrefix("}") && indent <= 2)
      {
        pending = nil
      }
      guard let step = stepNumber(line) else {
        index += 1
        continue
      }
      // The statement: from the marker's line, or the line after a marker standing alone.
      let first = trimmed.hasPrefix("//") ? index + 1 : index
      var last = first
      if trimmed.hasPrefix("}") {
        last = index  // The marker closes the statement.
      } else {
        var depth = 0
        var position = first
        while position < lines.count {
          depth += bracketBalance(code(lines[position]))
          last = position
          if depth <= 0 { break }
          position += 1
        }
      }
      // `await stepN.finish()` right after belongs to the step.
      while last + 1 < lines.count,
        lines[last + 1].drop(while: { $0 == " " }).hasPrefix("await step"),
        lines[last + 1].hasSuffix(".finish()")
      {
        last += 1
      }
      let start = min(pending ?? index, index)
      blocks[step] = start...last
      pending = last + 1
      index = last + 1
    }
    return blocks
  }

  /// The line without a trailing `// …` comment (outside string literals).
  static func code(_ line: Substring) -> Substring {
    var inString = false
    var previous: Character = " "
    for position in line.indices {
      let character = line[position]
      if character == "\"", previous != "\\" { inString.toggle() }
      if !inString, character == "/", previous == "/" {
        return line[..<line.index(before: position)]
      }
      previous = character
    }
    return line
  }

  /// Opening brackets less closing ones, outside string literals.
  static func bracketBalance(_ code: Substring) -> Int {
    var balance = 0
    var inString = false
    var previous: Character = " "
    for character in code {
      if character == "\"", previous != "\\" { inString.toggle() }
      if !inString {
        if "([{".contains(character) { balance += 1 }
        if ")]}".contains(character) { balance -= 1 }
      }
      previous = character
    }
    return balance
  }

  /// The median over steps of each step's lines.
  public var medianLinesPerStep: Double {
    let sorted = linesByStep.values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1
      ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The whole file's lines over the trace's steps.
  public var fileLinesPerStep: Double { steps == 0 ? 0 : Double(fileLines) / Double(steps) }

  /// The step whose block holds line `line` (1-based), if any.
  public static func step(atLine line: Int, in text: String) -> Int? {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return blocks(of: lines).first { $0.value.contains(line - 1) }?.key
  }

  /// N of a `// Step N` marker, on a line of its own or after a statement.
  static func stepNumber(_ line: Substring) -> Int? {
    guard let range = line.range(of: "// Step ") else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
  }
}
