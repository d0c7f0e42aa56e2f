import ExampleSessions
import Foundation
import TestSupport
import Testing

@testable import Recorder
@testable import TraceJSON

/// `TraceIndex.appended()`: a trace indexed while it is written, a piece at a time, ends up
/// indexed as the finished file is. The traces are the example sessions, recorded in the run.
@Suite("Trace index of a growing trace")
struct TraceIndexFollowingTests {
  @Test(
    "indexed in pieces, torn lines included, it holds what an index of the whole file holds",
    arguments: ExampleSession.allCases)
  func appendedPieces(session: ExampleSession) async throws {
    let directory = Scratch.url("growing").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let recorded = directory + "/recorded.ndjson"
    let recorder = try TraceRecorder(path: recorded)
    await session.record(to: recorder)
    try recorder.close()
    let source = try Data(contentsOf: URL(fileURLWithPath: recorded))
    let path = directory + "/growing.ndjson"
    // Cuts at a third and two thirds of the file, each in the middle of a line.
    let newlines = source.indices.filter { source[$0] == 0x0A }
    let cuts = [newlines[newlines.count / 3] + 7, newlines[2 * newlines.count / 3] + 7]
    try source[..<cuts[0]].write(to: URL(fileURLWithPath: path))
    var trace = try TraceIndex(path: path)
    #expect(trace.warning != nil, "the first piece ends in a torn line")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    var counts = [trace.stepCount]
    for range in [cuts[0]..<cuts[1], cuts[1]..<source.endIndex] {
      try handle.seekToEnd()
      try handle.write(contentsOf: source[range])
      let grown = try trace.appended()
      #expect(grown !== trace)
      trace = grown
      counts.append(trace.stepCount)
    }
    #expect(try trace.appended() === trace, "nothing new: the same index")

    let whole = try TraceIndex(path: path)
    #expect(counts[0] < counts[1] && counts[1] < counts[2])
    #expect(trace.stepIndices == whole.stepIndices)
    #expect(trace.keyframes == whole.keyframes)
    #expect(trace.end == whole.end && trace.isFinished)
    for index in trace.stepIndices {
      #expect(try trace.step(at: index).label == whole.step(at: index).label)
    }
    // A state every few steps: a wrong patch or keyframe from a piece shows in every state after
    // it, up to the next keyframe.
    for index in trace.stepIndices where index % 4 == 0 || index == trace.stepIndices.last {
      #expect(try trace.state(afterStep: index) == whole.state(afterStep: index), "step \(index)")
    }
  }
}
