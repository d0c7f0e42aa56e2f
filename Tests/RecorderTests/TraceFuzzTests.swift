import Architecture
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// Mutated traces through every reading path: nothing crashes, and every failure is a
/// `TraceReadError` that names a line the file has. A sample here; thousands in the slow suite.
@Suite("Trace reading fuzz")
struct TraceFuzzTests {
  @Test("mutated traces give errors, never crashes", arguments: ["counter.ndjson", "todos.ndjson"])
  func mutations(file: String) throws {
    try Self.fuzz(file, rounds: 150)
  }

  /// Reads `rounds` mutations of the start of `file`, each through every reading path.
  static func fuzz(_ file: String, rounds: Int) throws {
    let original = try [UInt8](
      Data(contentsOf: TracesTests.tracesDirectory.appendingPathComponent(file))
    )
    // Keep the cases small enough to run quickly: the header and the first steps.
    let cut = original.indices.filter { original[$0] == UInt8(ascii: "\n") }.dropFirst(80).first
    let sample = Array(original[...(cut ?? original.count - 1)])
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("fuzz-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }

    var generator = FuzzGenerator(seed: file == "counter.ndjson" ? 1 : 2)
    var failures = 0
    for round in 0..<rounds {
      var bytes = sample
      generator.mutate(&bytes)
      _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
      let lineCount = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        .count
      do {
        try exercise(path)
      } catch {
        failures += 1
        #expect(error.path == path, "round \(round)")
        if let line = error.line {
          #expect((1...lineCount).contains(line), "round \(round): line \(line)")
        }
        #expect(!error.message.isEmpty)
      }
    }
    // Most mutations break something; if none did, the mutator is not mutating.
    #expect(failures > rounds / 5)
  }

  /// Opens the trace, walks it to the end and back, jumps to its last step, and reads it
  /// record by record.
  private static func exercise(_ path: String) throws(TraceReadError) {
    let trace = try TraceIndex(path: path)
    var cursor = TraceIndex.Cursor(trace: trace)
    while try cursor.forward() {}
    while try cursor.backward() {}
    if let last = trace.stepIndices.last { _ = try trace.state(afterStep: last) }
    let reader = try TraceReader(path: path)
    while try reader.next() != nil {}
  }
}

/// Thousands of mutated traces: the fuzz at full length.
@Suite("Trace reading fuzz, 1,500 rounds a trace", .tags(.slow), .slowSuite)
struct TraceFuzzSlowTests {
  @Test("mutated traces give errors, never crashes", arguments: ["counter.ndjson", "todos.ndjson"])
  func mutations(file: String) throws {
    try TraceFuzzTests.fuzz(file, rounds: 1_500)
  }
}

/// Deterministic byte mutations: flips, deletions, duplications, truncations and JSON-ish
/// punctuation.
struct FuzzGenerator {
  private var random: SplitMix64
  init(seed: UInt64) { random = SplitMix64(seed: seed) }
  mutating func next() -> UInt64 { random.next() }

  mutating func mutate(_ bytes: inout [UInt8]) {
    for _ in 0...Int(next() % 3) {
      guard !bytes.isEmpty else { return }
      let position = Int(next() % UInt64(bytes.count))
      switch next() % 6 {
      case 0: bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (next() % 8))
      case 1: bytes.remove(at: position)
      case 2: bytes.insert(bytes[position], at: position)
      case 3: bytes.removeSubrange(position...)
      case 4:
        // Swap two digits' worth of text: indices and values go wrong but stay JSON.
        let digit = UInt8(ascii: "0") + UInt8(next() % 10)
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
          bytes[position] = digit
        }
      default:
        let punctuation = Array(#"{}[]",:-"\n"#.utf8)
        bytes[position] = punctuation[Int(next() % UInt64(punctuation.count))]
      }
    }
  }
}
