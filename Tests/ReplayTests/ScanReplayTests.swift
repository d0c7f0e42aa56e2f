import Counter
import Foundation
import Recorder
import ReplayMutants
import Testing

/// Replay reads a trace with keyframes on `summary`'s scan, cut into many runs: the same checks
/// give the same first bad line, and the steps before a divergence come from before its run.
@Suite("Replay on summary's scan")
struct ScanReplayTests {
  /// Options that cut a trace of a few dozen kilobytes into runs of about `runSize` bytes.
  static func options(precedingSteps: Int, runSize: Int) -> Replayer<CounterFeature>.Options {
    var options = Replayer<CounterFeature>.Options(
      mode: .isolated, maximumDivergences: 1_000, precedingSteps: precedingSteps, workers: 2)
    options.runSize = runSize
    return options
  }

  /// Bytes no recorder writes, put in place of one line.
  struct Damage: CustomTestStringConvertible, Sendable {
    var name: String
    var edit: @Sendable ([UInt8]) -> [UInt8]
    var testDescription: String { name }
  }

  static let damages: [Damage] = [
    Damage(name: "a NUL inside a string") { line in
      let quote = line.lastIndex(of: UInt8(ascii: "\""))!
      return Array(line[..<quote]) + [0] + Array(line[quote...])
    },
    Damage(name: "a line many runs long, broken at its end") { line in
      Array(#"{"kind":"step","label":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 40_000)
        + Array(#"","#.utf8)
    },
    Damage(name: "a line cut in the middle of a UTF-8 character") { line in
      Array(line.prefix(line.count / 2)) + [0xE2, 0x82]
    },
  ]

  @Test(
    "replay names summary's first bad line for hostile bytes on every side of a run boundary",
    arguments: damages
  )
  func sameFirstBadLine(damage: Damage) async throws {
    let path = try ParallelReplayTests.longTrace(steps: 80, keyframeInterval: 10)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let lines = try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: 10)
      .map(Array.init)
    // Every third line, from the first step on: with runs of 2 KB, a boundary is near each.
    for damaged in stride(from: 1, to: lines.count, by: 3) {
      var edited = lines
      edited[damaged] = damage.edit(lines[damaged])
      let broken = Paths.temporary("damaged.ndjson")
      defer { try? FileManager.default.removeItem(atPath: broken) }
      try Data(edited.joined(separator: [10]) + [10]).write(to: URL(fileURLWithPath: broken))
      let summary = try #require(CheckedTraceReader.firstProblem(in: broken))
      #expect(summary.line == damaged + 1, "line \(damaged + 1): \(summary)")
      let replayed = try await offPool { () -> String in
        do {
          _ = try Replayer(
            reducer: CounterFeature(), options: Self.options(precedingSteps: 5, runSize: 2_048)
          ).replay(tracePath: broken)
          return "no error"
        } catch {
          return "\(error)"
        }
      }
      #expect(replayed == summary.description, "line \(damaged + 1)")
    }
  }

  @Test(
    "every divergence lists the steps before it, read back across run boundaries",
    arguments: [(7, 5), (10, 12), (25, 3)]
  )
  func precedingStepsAcrossRuns(keyframeInterval: Int, precedingSteps: Int) async throws {
    let path = try ParallelReplayTests.longTrace(steps: 600, keyframeInterval: keyframeInterval)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options = Replayer<FactFailureAsFact>.Options(
      mode: .isolated, maximumDivergences: 1_000, precedingSteps: precedingSteps, workers: 2)
    options.runSize = 1_024
    let report = try await offPool {
      try Replayer(reducer: FactFailureAsFact(), options: options).replay(tracePath: path)
    }
    let expected = Array(stride(from: 49, to: 600, by: 50))
    #expect(report.steps == 600)
    #expect(report.divergences.map(\.step) == expected)
    for divergence in report.divergences {
      #expect(
        divergence.precedingSteps.map(\.index)
          == Array(divergence.step - precedingSteps..<divergence.step))
    }
  }
}
