import Foundation

/// How long a generated test file is, measured by its `// Step N` comments.
///
/// A step's block runs from its comment to the next step's comment, or to the end of the
/// scope the comment is in (the function's closing brace), blank lines included.
public struct GeneratedTestSize: Sendable {
  /// The lines of each step's block, by step number.
  public var linesByStep: [Int: Int]
  /// The whole file's lines.
  public var fileLines: Int
  /// The steps the trace recorded.
  public var steps: Int

  /// Measures `text`, the generated file of a trace of `steps` steps.
  public init(text: String, steps: Int) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    fileLines = lines.last == "" ? lines.count - 1 : lines.count
    self.steps = steps
    linesByStep = [:]
    var open: (step: Int, start: Int, indent: Int)?
    func close(at end: Int) {
      guard let block = open else { return }
      var last = end
      while last > block.start, lines[last - 1].allSatisfy(\.isWhitespace) { last -= 1 }
      // Blank lines between two steps count once, with the earlier step.
      linesByStep[block.step, default: 0] += min(end, last + 1) - block.start
      open = nil
    }
    for (index, line) in lines.enumerated() {
      let indent = line.prefix { $0 == " " }.count
      if let step = Self.stepNumber(line) {
        close(at: index)
        open = (step, index, indent)
      } else if let block = open, !line.allSatisfy(\.isWhitespace), indent < block.indent {
        close(at: index)
      }
    }
    close(at: lines.count)
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
    var current: Int?
    for (index, text) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if index + 1 > line { break }
      if let step = stepNumber(text) { current = step }
    }
    return current
  }

  /// N of a `// Step N` or `// Step N: …` comment line.
  static func stepNumber(_ line: Substring) -> Int? {
    let trimmed = line.drop { $0 == " " }
    guard trimmed.hasPrefix("// Step ") else { return nil }
    return Int(trimmed.dropFirst(8).prefix { $0.isNumber })
  }
}
