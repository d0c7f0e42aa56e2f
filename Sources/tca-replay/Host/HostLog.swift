#if canImport(Glibc)
  import Glibc
#endif
import Foundation

/// Where a replay host's standard error goes: a file, not the terminal.
///
/// A host that crashes prints a backtrace of a hundred lines or more; what the app prints while
/// replaying is not `tca-replay`'s output either. So the host writes to a file: the one
/// `--host-log` names (appended to), or else a temporary one, which is deleted when the host
/// gave no trouble and kept, and named, when it did. After a crash, the first lines of the
/// reason (Swift's `Fatal error: …` line) are read back from it.
final class HostLog {
  /// The file's path.
  let path: String
  /// Open for writing, appending; the host's standard error is a copy of it.
  let descriptor: Int32
  /// Whether `tca-replay` made the file, and deletes it when it is not needed.
  let isTemporary: Bool

  /// Opens `path` for appending, or makes a temporary file when `path` is `nil`.
  init(path: String?) throws(HostLogFailure) {
    if let path {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        let problem = String(cString: strerror(errno))
        throw HostLogFailure(description: "cannot open its log \(path): \(problem)")
      }
      self.path = path
      self.descriptor = descriptor
      isTemporary = false
    } else {
      let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "/tmp"
      let prefix = folder.hasSuffix("/") ? folder : folder + "/"
      var template = Array((prefix + "tca-replay-host.XXXXXX.log").utf8CString)
      let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
      guard descriptor >= 0 else {
        throw HostLogFailure(
          description: "cannot make its log in \(folder): \(String(cString: strerror(errno)))")
      }
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      self.path = String(
        decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      self.descriptor = descriptor
      isTemporary = true
      HostProcessGroup.installSignalHandlers()
      HostProcessGroup.setTemporaryLog(self.path)
    }
  }

  deinit {
    close(descriptor)
    if isTemporary { HostProcessGroup.setTemporaryLog(path, removing: true) }
  }

  /// How many bytes the file holds; 0 when it is not a regular file (`/dev/stderr`).
  var size: Int {
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(status.st_size)
  }

  /// Keeps the log, which a message names: an interrupted `tca-replay` no longer deletes it.
  func keep() {
    if isTemporary { HostProcessGroup.setTemporaryLog(path, removing: true) }
  }

  /// Deletes a temporary log; called when the host gave no trouble.
  func discard() {
    if isTemporary { unlink(path) }
  }

  /// Deletes a temporary log the host wrote nothing in; keeps every other.
  func discardIfEmpty() {
    if isTemporary, size == 0 { unlink(path) }
  }

  /// The text written since `offset`: at most its last 256 KiB, where a crash's reason is.
  func text(since offset: Int) -> String {
    let end = size
    let start = max(offset, end - (256 << 10))
    guard end > start, let file = open(path, O_RDONLY | O_CLOEXEC) as Int32?, file >= 0 else {
      return ""
    }
    defer { close(file) }
    var bytes = [UInt8](repeating: 0, count: end - start)
    let count = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, off_t(start)) }
    return String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
  }

  /// The first lines of a crash's reason in `text`, the host's standard error: the runtime's
  /// first `…: Fatal error: …` line and what follows it, up to three lines; else the
  /// backtracer's `Program crashed: …` line; else nothing.
  static func reason(in text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0).trimmingCharacters(in: .whitespaces)
    }
    // The backtracer starts its report with a line saying the program crashed.
    let crashed = lines.lastIndex { $0.contains("Program crashed:") }
    let before = lines[..<(crashed ?? lines.endIndex)]
    let markers = ["Fatal error", "Precondition failed", "Assertion failed", "fatal error"]
    // The first: when several threads trap at once, the first to say so is the first to report.
    if let first = before.firstIndex(where: { line in markers.contains { line.contains($0) } }) {
      return Array(
        before[first...].prefix { line in
          // The runtime's own stack trace, when the backtracer is off, is not the reason.
          !line.isEmpty && !["Current stack trace", "*** ", "💣"].contains { line.hasPrefix($0) }
        }
        .prefix(3).map { Self.shortened($0) }
      )
    }
    if let crashed {
      let line = lines[crashed]
      let from = line.range(of: "Program crashed:")!.lowerBound
      let said = line[from...].trimmingCharacters(in: CharacterSet(charactersIn: "* "))
      return [Self.shortened(said)]
    }
    return []
  }

  /// One line, at most 300 characters, with control characters escaped.
  private static func shortened(_ line: String) -> String {
    let escaped = line.escapingControlCharacters
    return escaped.count > 300 ? escaped.prefix(299) + "…" : escaped
  }
}

/// A log that cannot be opened or made: `cannot open its log /x.log: Permission denied`.
struct HostLogFailure: Error {
  var description: String
}
