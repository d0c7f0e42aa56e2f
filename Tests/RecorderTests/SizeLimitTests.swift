import Architecture
import Foundation
import Testing

@testable import Recorder

@MainActor
@Suite("Size limits")
struct SizeLimitTests {
  /// Records `steps` steps of the `Notes` feature to a file with `limit`; returns the paths of
  /// the segments, newest first, with their records.
  func record(steps: Int, limit: TraceRecorder.SizeLimit) throws -> [(String, [TraceRecord])] {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("limits-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("trace.ndjson").path
    let recorder = try TraceRecorder(
      path: path, options: .init(keyframeInterval: 10, limit: limit)
    )
    let store = Store(initialState: Notes.State()) {
      Notes().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    for index in 0..<steps {
      store.send(index.isMultiple(of: 5) ? .add("note \(index)") : .bump)
    }
    try recorder.close()
    var segments: [(String, [TraceRecord])] = []
    for candidate in [path] + (1...5).map({ "\(path).\($0)" })
    where FileManager.default.fileExists(atPath: candidate) {
      let reader = try TraceReader(path: candidate)
      var records: [TraceRecord] = []
      while let record = try reader.next() { records.append(record) }
      #expect(reader.warning == nil)
      segments.append((candidate, records))
    }
    return segments
  }

  /// Checks that a segment loads on its own: a header, contiguous steps from its first step,
  /// patches that apply from its initial state and match its keyframes.
  func checkSegment(_ records: [TraceRecord]) throws -> ClosedRange<Int>? {
    guard case let .header(header) = records.first else {
      Issue.record("a segment must start with a header")
      return nil
    }
    var state = header.initialState
    var next = header.firstStep
    for record in records.dropFirst() {
      switch record {
      case let .step(step):
        #expect(step.index == next)
        next += 1
        state = try step.patch.apply(to: state)
      case let .keyframe(keyframe):
        #expect(keyframe.state == state)
      case .header:
        Issue.record("one header per segment")
      default:
        break
      }
    }
    return next > header.firstStep ? header.firstStep...(next - 1) : nil
  }

  @Test("a flight recorder keeps the last N to 2N steps in two files that each load alone")
  func lastSteps() throws {
    let segments = try record(steps: 230, limit: .lastSteps(50))
    #expect(segments.map { URL(fileURLWithPath: $0.0).lastPathComponent } == [
      "trace.ndjson", "trace.ndjson.1",
    ])
    let ranges = try segments.map { try checkSegment($0.1) }
    #expect(ranges == [200...229, 150...199])
    guard case let .end(end) = segments[0].1.last else {
      Issue.record("the newest segment ends with the end record")
      return
    }
    #expect(end.steps == 230)
  }

  @Test("rotation by size keeps the newest files, contiguous, each starting with a header")
  func rotateBySize() throws {
    let segments = try record(steps: 300, limit: .rotate(maxBytes: 8_000, keep: 2))
    #expect(segments.count == 3)
    let ranges = try segments.map { try checkSegment($0.1) }.compactMap { $0 }
    #expect(ranges.count == 3)
    #expect(ranges[0].upperBound == 299)
    #expect(ranges[1].upperBound + 1 == ranges[0].lowerBound)
    #expect(ranges[2].upperBound + 1 == ranges[1].lowerBound)
    for (path, _) in segments {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
      // A segment passes its limit only with the records of its last step (and its keyframe).
      let lines = try String(contentsOfFile: path, encoding: .utf8)
        .split(separator: "\n").map { $0.utf8.count + 1 }
      let text = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      let lastStep = try #require(text.lastIndex { $0.hasPrefix(#"{"kind":"step""#) })
      #expect(lines[..<lastStep].reduce(0, +) < 8_000)
    }
  }
}
