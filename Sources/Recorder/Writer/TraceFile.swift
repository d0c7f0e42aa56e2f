import Architecture
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `write(2)` a trace file calls: bytes written, or -1 with `errno` set. Tests inject one
/// that fails, as a full disk does.
typealias WriteCall =
  @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int

/// An open trace file, readable and writable by its owner only.
///
/// A regular file is created without a name (`O_TMPFILE`) in `path`'s directory, or, where that
/// is not supported, under a temporary name next to `path` with `O_EXCL | O_NOFOLLOW`; it
/// appears at `path` (by `linkat(2)`, or `rename(2)` over what is there) only once its first
/// lines, the header, are written: a reader, or a kill, never finds an empty trace there, a
/// kill before then leaves no file behind, and nobody can point the trace at another file with
/// a link. A FIFO, a socket or a device the user named is written as it is.
///
/// A write that fails leaves the file ending at its last complete line: what was written of
/// the failed batch is truncated away.
// unchecked: its vars are read and written only under `lock`
final class TraceFile: @unchecked Sendable {
  private let lock = Lock()
  private var descriptor: Int32
  let path: String
  /// Where the file is until ``publish()`` renames it to `path`; `nil` once it is there.
  private var temporaryPath: String?
  /// Whether the file has no name yet (`O_TMPFILE`): ``publish()`` links it.
  private var isAnonymous = false
  /// Whether the file is a regular file, which can be truncated and synced.
  let isRegular: Bool
  /// Bytes of complete lines in the file: where a failed write is cut back to.
  private var committed = 0
  private let writeCall: WriteCall

  static let systemWrite: WriteCall = { descriptor, bytes, count in
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes, count)
    #else
      Darwin.write(descriptor, bytes, count)
    #endif
  }

  /// Opens a new file for `path`, under a temporary name unless `path` is a FIFO or a device.
  init(path: String, writeCall: @escaping WriteCall = TraceFile.systemWrite) throws {
    self.path = path
    self.writeCall = writeCall
    var status = stat()
    let kind = stat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    if kind == S_IFDIR {
      throw RecorderError.cannotOpen(path: path, reason: "it is a directory")
    }
    if kind != 0 && kind != S_IFREG {
      // A FIFO, a socket or a device the user named: nothing to create or truncate.
      let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw RecorderError.cannotOpen(path: path, reason: Self.lastError)
      }
      self.descriptor = descriptor
      isRegular = false
      return
    }
    isRegular = true
    let (directory, name) = Self.split(path)
    #if os(Linux)
      // A file without a name until it holds its header: a kill before then leaves nothing.
      // Linking it needs /proc; without it, the file gets a temporary name instead.
      if access("/proc/self/fd", X_OK) == 0 {
        let anonymous = open(directory, __O_TMPFILE | O_DIRECTORY | O_WRONLY | O_CLOEXEC, 0o600)
        if anonymous >= 0 {
          descriptor = anonymous
          isAnonymous = true
          return
        }
      }
    #endif
    var descriptor: Int32 = -1
    var temporary = ""
    // A name nobody can have prepared: O_EXCL refuses an existing file or link.
    for _ in 0..<8 {
      temporary = Self.temporaryName(directory: directory, name: name)
      descriptor = open(
        temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if descriptor >= 0 || errno != EEXIST { break }
    }
    if descriptor >= 0 {
      self.descriptor = descriptor
      temporaryPath = temporary
      return
    }
    let reason = Self.lastError
    guard errno == EACCES || errno == EPERM || errno == EROFS, kind == S_IFREG else {
      throw RecorderError.cannotOpen(path: path, reason: reason)
    }
    // The directory is not ours to change: the existing file is reused only if it is ours
    // and as private as a new trace would be.
    self.descriptor = try Self.reuse(path: path, directoryProblem: reason)
  }

  private static func reuse(path: String, directoryProblem: String) throws -> Int32 {
    let descriptor = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw RecorderError.cannotOpen(path: path, reason: "\(directoryProblem); \(lastError)")
    }
    var status = stat()
    let mode = fstat(descriptor, &status) == 0 ? status.st_mode : 0
    guard mode & S_IFMT == S_IFREG, status.st_uid == geteuid(), mode & 0o077 == 0 else {
      _ = closeDescriptor(descriptor)
      throw RecorderError.cannotOpen(
        path: path,
        reason: "cannot create a file in its directory (\(directoryProblem)), and the file "
          + "there (mode \(String(mode & 0o777, radix: 8))) is not reused: only a file of "
          + "yours with mode 0600 or narrower is")
    }
    guard ftruncate(descriptor, 0) == 0 else {
      let reason = lastError
      _ = closeDescriptor(descriptor)
      throw RecorderError.cannotOpen(path: path, reason: reason)
    }
    return descriptor
  }

  /// Writes `bytes`, whole lines; on failure, cuts the file back to its last complete line.
  func write(_ bytes: [UInt8]) throws {
    try lock.withLock {
      guard descriptor >= 0 else { throw RecorderError.closed(path: path) }
      try bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = writeCall(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            let reason = Self.lastError
            rollBack()
            throw RecorderError.cannotWrite(path: path, reason: reason)
          }
          offset += written
        }
      }
      committed += bytes.count
    }
  }

  /// Moves the file to `path` if it is not there yet. Replaces whatever is at `path`, a
  /// link included, in one step.
  func publish() throws {
    try publish(at: path)
  }

  /// Gives the file the name `target` if it has no name but a temporary one yet, replacing
  /// whatever is at `target`, a link included, in one step.
  func publish(at target: String) throws {
    try lock.withLock { try place(at: target) }
  }

  /// ``publish(at:)``, with the lock held.
  private func place(at target: String) throws {
    guard isAnonymous || temporaryPath != nil else { return }
    #if os(Linux)
      if isAnonymous {
        TraceFileHooks.willChangeNames?("link")
        let source = "/proc/self/fd/\(descriptor)"
        if linkat(AT_FDCWD, source, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0 {
          isAnonymous = false
          return
        }
        guard errno == EEXIST else {
          throw RecorderError.cannotWrite(path: target, reason: Self.lastError)
        }
        // Something is there: a temporary name first, then a rename replaces it at once.
        let (directory, name) = Self.split(path)
        let temporary = Self.temporaryName(directory: directory, name: name)
        guard linkat(AT_FDCWD, source, AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else {
          throw RecorderError.cannotWrite(path: target, reason: Self.lastError)
        }
        isAnonymous = false
        temporaryPath = temporary
      }
    #endif
    guard let temporaryPath else { return }
    TraceFileHooks.willChangeNames?("rename")
    guard rename(temporaryPath, target) == 0 else {
      throw RecorderError.cannotWrite(path: target, reason: Self.lastError)
    }
    self.temporaryPath = nil
  }

  /// Whether the file has its name, `path` or the one ``publish(at:)`` gave it.
  var isPublished: Bool { lock.withLock { temporaryPath == nil && !isAnonymous } }

  /// A temporary name for a file of `name` in `directory`: `.<name>.<random>.tmp`.
  static func temporaryName(directory: String, name: String) -> String {
    "\(directory)/.\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
  }

  /// Removes the temporary files a killed recorder left next to `path`: regular files of
  /// this user named `.<name>.<random>.tmp`. A recorder running at the same path at the same
  /// moment is not supported; its file has a temporary name only between two system calls.
  static func removeLeftovers(of path: String) {
    let (directory, name) = split(path)
    guard let stream = opendir(directory) else { return }
    defer { closedir(stream) }
    let prefix = ".\(name)."
    let digits = Set("0123456789abcdefghijklmnopqrstuvwxyz")
    while let entry = readdir(stream) {
      // NB: read the name in place; `entry.pointee` copies a whole `dirent`, and glibc's may be
      // shorter than that at the end of its buffer, so the copy could read past its page.
      let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
      let entryName = String(
        cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
      guard entryName.hasPrefix(prefix), entryName.hasSuffix(".tmp") else { continue }
      let middle = entryName.dropFirst(prefix.count).dropLast(4)
      guard !middle.isEmpty, middle.count <= 13, middle.allSatisfy(digits.contains) else {
        continue
      }
      let leftover = "\(directory)/\(entryName)"
      var status = stat()
      guard lstat(leftover, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        status.st_uid == geteuid()
      else { continue }
      unlink(leftover)
    }
  }

  /// Removes the last, incomplete, lines of a failed write. A pipe cannot take them back.
  private func rollBack() {
    guard isRegular else { return }
    _ = ftruncate(descriptor, off_t(committed))
    _ = lseek(descriptor, off_t(committed), SEEK_SET)
  }

  /// Syncs a regular file; a pipe, a FIFO or a device has nothing to sync.
  func synchronize() throws {
    try lock.withLock {
      guard descriptor >= 0, isRegular else { return }
      if fsync(descriptor) != 0, errno != EINVAL, errno != EROFS {
        throw RecorderError.cannotWrite(path: path, reason: Self.lastError)
      }
    }
  }

  /// Syncs and closes the file, putting it at `path` if it is not there yet: a recorder closed
  /// before its first step leaves an empty trace, as it was asked to.
  func close() throws {
    lock.withLock {
      guard descriptor >= 0 else { return }
      if isRegular { fsync(descriptor) }
      if isAnonymous { try? place(at: path) }
      _ = Self.closeDescriptor(descriptor)
      descriptor = -1
      if let temporaryPath, rename(temporaryPath, path) != 0 { unlink(temporaryPath) }
      temporaryPath = nil
    }
  }

  /// Closes the file and removes it if it never reached `path`.
  func discard() {
    lock.withLock {
      if descriptor >= 0 { _ = Self.closeDescriptor(descriptor) }
      descriptor = -1
      if let temporaryPath { unlink(temporaryPath) }
      temporaryPath = nil
    }
  }

  deinit {
    if descriptor >= 0 { _ = Self.closeDescriptor(descriptor) }
    if let temporaryPath { unlink(temporaryPath) }
  }

  private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(descriptor)
    #else
      Darwin.close(descriptor)
    #endif
  }

  private static var lastError: String { String(cString: strerror(errno)) }

  /// The directory (`.` when none is named) and the file name of `path`.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }
}

/// Where the kill tests' child stops itself: before each change of a trace file's names.
package enum TraceFileHooks {
  /// Called with what changes (`link`, `rename`, `exchange`); `nil` in apps.
  nonisolated(unsafe) package static var willChangeNames: ((String) -> Void)?
}
