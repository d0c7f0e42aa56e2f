import Architecture
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Recorder

#if canImport(Glibc)
  import Glibc
#endif

@MainActor
@Suite("Trace files")
struct TraceFileTests {
  static func temporaryDirectory() throws -> String {
    let path = Scratch.url("files").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test("a trace appears at its path only holding its header, before the first step returns")
  func headerFirst() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/trace.ndjson"
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 0))
    // No empty file that no command loads.
    #expect(!FileManager.default.fileExists(atPath: path))
    let store = Store(initialState: Notes.State()) { Notes().recording(to: recorder) }
    store.send(.bump)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix(#"{"kind":"header""#))
    try recorder.close()
    // The temporary file was renamed, not left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["trace.ndjson"])
  }

  @Test("a link at the trace's path is replaced, and the file it points to is left alone")
  func linkIsNotFollowed() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let victim = directory + "/victim"
    let path = directory + "/trace.ndjson"
    #expect(FileManager.default.createFile(atPath: victim, contents: Data("precious\n".utf8)))
    #expect(symlink(victim, path) == 0)
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 0))
    let store = Store(initialState: Notes.State()) { Notes().recording(to: recorder) }
    store.send(.bump)
    try recorder.close()
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    var status = stat()
    #expect(lstat(path, &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFREG)
    #expect(status.st_mode & 0o777 == 0o600)
    #expect(try TraceIndex(path: path).stepCount == 1)
  }

  @Test("a rotated segment replaces the trace at its path already holding its header")
  func rotationPublishesWholeSegments() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/trace.ndjson"
    let file = try RotatingTraceFile(path: path, keep: 1)
    try file.write(Array("{\"first\":1}\n".utf8))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"first\":1}\n")
    #expect(try file.rotate(header: Array("{\"second\":2}\n".utf8)))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"second\":2}\n")
    #expect(try String(contentsOfFile: path + ".1", encoding: .utf8) == "{\"first\":1}\n")
    try file.close()
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        == ["trace.ndjson", "trace.ndjson.1"])
  }

  @Test("a character device takes a trace, flushes and closes without error")
  func characterDevice() throws {
    let recorder = try TraceRecorder(path: "/dev/null", options: .init(keyframeInterval: 0))
    let store = Store(initialState: Notes.State()) { Notes().recording(to: recorder) }
    store.send(.bump)
    try recorder.flush()
    try recorder.close()
    var status = stat()
    #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
  }

  @Test("big states are held back by bytes: the steps waiting to be written stay under the budget")
  func byteBudget() throws {
    // A slow sink, so that the app runs ahead of the writer as far as the queue lets it.
    let written = Atomic<Int>(0)
    let sink = TraceSink(write: { bytes in
      usleep(2_000)
      let marker = Array(#"{"kind":"step""#.utf8)
      var count = 0
      var start = 0
      for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        if bytes[start...].starts(with: marker) { count += 1 }
        start = offset + 1
      }
      written.add(count, ordering: .relaxed)
    })
    let stateSize = 256 << 10
    let recorder = TraceRecorder(
      sink: sink, options: .init(keyframeInterval: 0, queueByteLimit: 4 << 20))
    var initial = Notes.State()
    initial.token = String(repeating: "t", count: stateSize)
    let store = Store(initialState: initial) { Notes().recording(to: recorder) }
    var mostWaiting = 0
    for sent in 1...200 {
      store.send(.bump)
      mostWaiting = max(mostWaiting, sent - written.load(ordering: .relaxed))
    }
    try recorder.close()
    #expect(written.load(ordering: .relaxed) == 200)
    // Half the budget for the queue, half for the batch being written, and the step in hand.
    #expect(mostWaiting <= 2 * (4 << 20) / 2 / stateSize + 2)
  }
}
