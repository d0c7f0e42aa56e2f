import Architecture
import Foundation
import Synchronization
import Testing

@testable import Recorder
@testable import TraceJSON

#if canImport(Glibc)
  import Glibc
#endif

/// A `write(2)` that fails like a full disk while `isFull` is set: it writes part of what it
/// is given, then fails with ENOSPC, as a disk that fills mid-write does.
final class FillingDisk: Sendable {
  let isFull = Atomic<Bool>(false)

  var writeCall: WriteCall {
    { [self] descriptor, bytes, count in
      guard isFull.load(ordering: .relaxed) else {
        return TraceFile.systemWrite(descriptor, bytes, count)
      }
      if count > 1 { _ = TraceFile.systemWrite(descriptor, bytes, count / 2) }
      errno = ENOSPC
      return -1
    }
  }
}

@MainActor
@Suite("Write failures")
struct WriteFailureTests {
  static func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("\(name)-\(UUID().uuidString).ndjson").path
  }

  /// Records 5 steps, 5 on a full disk, then 5 after space is freed; returns what `flush()`
  /// and `close()` said along the way.
  static func recordThroughFullDisk(path: String) throws -> [String] {
    let disk = FillingDisk()
    let sink = try TraceSink.file(atPath: path, keep: 0, writeCall: disk.writeCall)
    let recorder = TraceRecorder(sink: sink, options: .init(keyframeInterval: 0))
    let store = Store(initialState: Notes.State()) {
      Notes().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    var said: [String] = []
    func outcome(_ body: () throws -> Void) {
      do {
        try body()
        said.append("ok")
      } catch {
        said.append("\(error)")
      }
    }
    for _ in 0..<5 { store.send(.bump) }
    outcome { try recorder.flush() }
    disk.isFull.store(true, ordering: .relaxed)
    for index in 0..<5 { store.send(.add("lost \(index)")) }
    outcome { try recorder.flush() }
    // The file ends at its last complete line while the disk is full.
    let text = try String(contentsOfFile: path, encoding: .utf8)
    said.append(text.hasSuffix("\n") ? "ends at a line" : "torn")
    outcome { try recorder.flush() }
    disk.isFull.store(false, ordering: .relaxed)
    for _ in 0..<5 { store.send(.bump) }
    outcome { try recorder.close() }
    return said
  }

  @Test("a failed write is cut back to the last line, reported once, and its steps declared")
  func fullDiskThenSpace() throws {
    let path = Self.temporaryPath("full")
    defer { unlink(path) }
    let said = try Self.recordThroughFullDisk(path: path)
    #expect(said.count == 5)
    #expect(said[0] == "ok")
    #expect(said[1].contains("No space left on device"))
    #expect(said[2] == "ends at a line")
    #expect(said[3] == "ok")  // Reported once: nothing failed since.
    #expect(said[4] == "ok")

    let trace = try TraceIndex(path: path)
    #expect(trace.warning == nil)
    #expect(trace.gaps.map(\.steps) == [5...9])
    #expect(trace.gaps.first?.reason.contains("No space left on device") == true)
    #expect(trace.stepIndices == 0..<15)
    #expect(trace.end?.steps == 15)
    // The state after the gap is the app's: 10 bumps, the 5 notes added during the gap.
    let state = try trace.state(afterStep: 14)
    #expect(state["count"] == .integer(10))
    #expect(state["notes"]?.arrayValue?.count == 5)
    #expect(try trace.state(afterStep: 4)["count"] == .integer(5))
    #expect(throws: TraceReadError.self) { try trace.step(at: 7) }
    #expect(try trace.step(at: 10).label == ".bump")

    // The checked reader, which `summary` and `log` use, reads it through.
    let reader = try CheckedTraceReader(path: path)
    var kinds: [String] = []
    while let record = try reader.next() {
      if case .gap(let gap) = record { kinds.append("gap \(gap.from)…\(gap.to)") }
    }
    #expect(kinds == ["gap 5…9"])
    #expect(reader.state["count"] == .integer(10))
  }

  @Test("a disk full from the header on still gives a trace that starts with its header")
  func fullFromTheStart() throws {
    let path = Self.temporaryPath("full-start")
    defer { unlink(path) }
    let disk = FillingDisk()
    disk.isFull.store(true, ordering: .relaxed)
    let sink = try TraceSink.file(atPath: path, keep: 0, writeCall: disk.writeCall)
    let recorder = TraceRecorder(sink: sink, options: .init(keyframeInterval: 0))
    let store = Store(initialState: Notes.State()) { Notes().recording(to: recorder) }
    store.send(.bump)
    store.send(.bump)
    #expect(throws: RecorderError.self) { try recorder.flush() }
    // Nothing loadable was written, so nothing is at the path yet.
    #expect(!FileManager.default.fileExists(atPath: path))
    disk.isFull.store(false, ordering: .relaxed)
    store.send(.bump)
    try recorder.close()
    let trace = try TraceIndex(path: path)
    #expect(trace.gaps.map(\.steps) == [0...1])
    #expect(try trace.state(afterStep: 2)["count"] == .integer(3))
  }

  @Test("the gap record round-trips through its JSON")
  func gapJSON() throws {
    let gap = TraceGap(from: 3, to: 7, reason: "disk full \"quoted\"\n", state: ["a": [1, 2]])
    var bytes: [UInt8] = []
    TraceRecord.gap(gap).serialize(into: &bytes)
    let line = String(decoding: bytes, as: UTF8.self)
    #expect(line.hasPrefix(#"{"kind":"gap","from":3,"to":7,"reason":"#))
    #expect(try TraceRecord(json: JSONValue(parsing: line)) == .gap(gap))
  }
}
