import Architecture
import Foundation
import TestSupport
import Testing

@testable import Recorder

#if canImport(Glibc)
  import Glibc
#endif

@MainActor
@Suite("Recording to files that are not regular files")
struct SpecialFileTests {
  @Test("a trace written to a FIFO flushes and closes without error, and every line arrives")
  func fifo() async throws {
    let directory = Scratch.url("fifo")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("trace.ndjson").path
    #expect(mkfifo(path, 0o600) == 0)

    // The reader opens the FIFO first (the writer's open waits for it) and reads to the end.
    let reader = Task.detached { () -> [UInt8] in
      guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
      return Array(handle.readDataToEndOfFile())
    }
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 0))
    let store = Store(initialState: Notes.State()) { Notes().recording(to: recorder) }
    store.send(.bump)
    store.send(.bump)
    try recorder.flush()
    try recorder.close()
    let bytes = await reader.value
    let lines = bytes.split(separator: UInt8(ascii: "\n"))
    #expect(lines.count == 4)  // header, two steps, end
    var status = stat()
    #expect(lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
  }

  @Test("a pre-existing trace file with a looser mode is left with mode 0600")
  func looseMode() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("loose-\(UUID().uuidString).ndjson").path
    defer { unlink(path) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data("old\n".utf8)))
    #expect(chmod(path, 0o644) == 0)
    let recorder = try TraceRecorder(path: path, options: .init(keyframeInterval: 0))
    try recorder.close()
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)
  }
}
