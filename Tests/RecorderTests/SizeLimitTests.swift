import Architecture
import Foundation
import TestSupport
import Testing
import TraceJSON

@testable import Recorder

@MainActor
@Suite("Size limits")
struct SizeLimitTests {
  /// Records `steps` steps of the `Notes` feature to a file with `limit`; returns the paths of
  /// the segments, newest first, with their records.
  func record(steps: Int, limit: TraceRecorder.SizeLimit) throws -> [(String, [TraceRecord])] {
    let directory = Scratch.url("limits")
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
      let reader = try TraceReader(segmentAt: candidate)
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

@MainActor
@Suite("Size limits through a full disk")
struct GapSegmentTests {
  @Test("lost steps near a segment's limit start a new segment with their gap, not overfill the old")
  func gapStartsSegment() throws {
    let directory = Scratch.url("gap-limits")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("trace.ndjson").path
    let limit = 8_000
    let disk = FillingDisk()
    let sink = try TraceSink.file(atPath: path, keep: 5, writeCall: disk.writeCall)
    let recorder = TraceRecorder(
      sink: sink, options: .init(keyframeInterval: 0, limit: .rotate(maxBytes: limit, keep: 5)))
    let store = Store(initialState: Notes.State()) {
      Notes().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    // A state of about 2 KB, so the gap record, which holds it, cannot fit in what is left.
    store.send(.add(String(repeating: "x", count: 2_000)))
    func size() throws -> Int {
      try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
    repeat {
      store.send(.bump)
      try recorder.flush()
    } while try size() < limit - 1_200
    #expect(try size() < limit)
    disk.isFull.store(true, ordering: .relaxed)
    for _ in 0..<3 { store.send(.bump) }
    #expect(throws: RecorderError.self) { try recorder.flush() }
    disk.isFull.store(false, ordering: .relaxed)
    for _ in 0..<3 { store.send(.bump) }
    try recorder.close()

    var gaps: [(firstStep: Int, gap: TraceGap, initialState: JSONValue)] = []
    var covered: [ClosedRange<Int>] = []
    for candidate in [path] + (1...5).map({ "\(path).\($0)" })
    where FileManager.default.fileExists(atPath: candidate) {
      let text = try String(contentsOfFile: candidate, encoding: .utf8).split(separator: "\n")
      let lastStep = try #require(text.lastIndex { $0.hasPrefix(#"{"kind":"step""#) })
      // The limit holds as it does without a gap: only the last step's lines pass it.
      #expect(text[..<lastStep].map { $0.utf8.count + 1 }.reduce(0, +) < limit, "\(candidate)")
      let reader = try TraceReader(segmentAt: candidate)
      guard case let .header(header) = try reader.next() else {
        Issue.record("\(candidate) must start with a header")
        continue
      }
      var last = header.firstStep - 1
      while let record = try reader.next() {
        switch record {
        case let .gap(gap):
          gaps.append((header.firstStep, gap, header.initialState))
          last = gap.to
        case let .step(step): last = step.index
        default: break
        }
      }
      #expect(reader.warning == nil)
      #expect(try TraceIndex(segmentAt: candidate).warning == nil)
      covered.append(header.firstStep...last)
    }
    let gap = try #require(gaps.only)
    #expect(gap.gap.to - gap.gap.from == 2)
    #expect(gap.firstStep == gap.gap.from)
    #expect(gap.initialState == gap.gap.state)
    // The segments, by first step, cover every step once: the lost ones by the gap.
    let ordered = covered.sorted { $0.lowerBound < $1.lowerBound }
    #expect(ordered.first?.lowerBound == 0)
    #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound })
  }
}

extension Array {
  fileprivate var only: Element? { count == 1 ? first : nil }
}
