import Architecture
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A trace file that can move aside for a new segment, keeping a number of older ones.
///
/// At every moment a file that loads is at `path`: a new segment is written, header first,
/// without a name (or under a temporary one), and named only then.
///
/// A new segment moves in by swapping names (`renameat2(RENAME_EXCHANGE)`), so a kill at any
/// moment of a rotation leaves `path` and `keep` older segments (as many as there were), each a
/// different file: the new segment, which holds only its header, takes the oldest one's name
/// and is swapped down to `path`. Until the last swap it sits at a numbered name, out of order.
/// Where names cannot be swapped, the older way (a link, then renames) is used.
// unchecked: `file` is read and written only under `lock`
final class RotatingTraceFile: @unchecked Sendable {
  private let lock = Lock()
  private var file: TraceFile
  private let path: String
  private let keep: Int
  private let writeCall: WriteCall

  init(path: String, keep: Int, writeCall: @escaping WriteCall = TraceFile.systemWrite) throws {
    self.path = path
    self.keep = keep
    self.writeCall = writeCall
    TraceFile.removeLeftovers(of: path)
    self.file = try TraceFile(path: path, writeCall: writeCall)
  }

  /// Writes whole lines; the first ones written (the header) put the file at `path`.
  func write(_ bytes: [UInt8]) throws {
    try lock.withLock {
      try file.write(bytes)
      try file.publish()
    }
  }

  func synchronize() throws { try lock.withLock { try file.synchronize() } }
  func close() throws { try lock.withLock { try file.close() } }

  /// Writes `header` to a new file, shifts the kept segments up by one, and puts the new file
  /// at `path`. Returns `false`, doing nothing, when the trace is not a regular file.
  func rotate(header: [UInt8]) throws -> Bool {
    try lock.withLock {
      guard file.isRegular, file.isPublished else { return false }
      let next = try TraceFile(path: path, writeCall: writeCall)
      do {
        try next.write(header)
      } catch {
        next.discard()
        throw error
      }
      if keep > 0 {
        try shift(in: next)
      } else {
        try next.publish()
      }
      try? file.close()
      file = next
      return true
    }
  }

  /// Puts `next` at `path` and the current segment at `path.1`, moving the older ones up.
  private func shift(in next: TraceFile) throws {
    var existing = 0
    var status = stat()
    while existing < keep, lstat(segment(existing + 1), &status) == 0 { existing += 1 }
    let start = min(existing + 1, keep)
    // The oldest kept segment is replaced, at once: it is the one to go.
    try next.publish(at: segment(start))
    for index in stride(from: start, through: 1, by: -1) {
      TraceFileHooks.willChangeNames?("exchange")
      guard Self.exchange(segment(index), segment(index - 1)) else {
        if index == start, errno == EINVAL || errno == ENOSYS || errno == ENOTSUP {
          return try shiftByRenaming(newAt: segment(start))
        }
        throw RecorderError.cannotWrite(
          path: segment(index), reason: String(cString: strerror(errno)))
      }
    }
  }

  /// The rotation where names cannot be swapped: a kill in it can leave a segment missing, or
  /// `path` and `path.1` naming one file.
  private func shiftByRenaming(newAt temporary: String) throws {
    let (directory, name) = TraceFile.split(path)
    let moved = TraceFile.temporaryName(directory: directory, name: name)
    rename(temporary, moved)
    for index in stride(from: keep - 1, through: 1, by: -1) {
      rename(segment(index), segment(index + 1))
    }
    // A second name for the old segment, so that `path` is never missing; where links are
    // not supported, a rename leaves it missing until the next line.
    if link(path, segment(1)) != 0 { rename(path, segment(1)) }
    guard rename(moved, path) == 0 else {
      throw RecorderError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// `path` for 0, `path.<index>` otherwise.
  private func segment(_ index: Int) -> String {
    index == 0 ? path : "\(path).\(index)"
  }

  /// Swaps the files named `first` and `second` in one step; `false`, with `errno` set, where
  /// that is not supported.
  private static func exchange(_ first: String, _ second: String) -> Bool {
    #if os(Linux)
      typealias RenameAt2 = @convention(c) (
        Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
      ) -> Int32
      guard let symbol = renameAt2 else {
        errno = ENOSYS
        return false
      }
      let call = unsafeBitCast(symbol, to: RenameAt2.self)
      // RENAME_EXCHANGE, from <linux/fs.h>.
      return call(AT_FDCWD, first, AT_FDCWD, second, 1 << 1) == 0
    #else
      errno = ENOSYS
      return false
    #endif
  }

  /// glibc has `renameat2` since 2.28, but Swift's Glibc module does not import it.
  nonisolated(unsafe) private static let renameAt2 = dlsym(nil, "renameat2")
}
