#if canImport(Glibc)
  import Glibc
#endif

/// How every file made from a trace is created: readable and writable by its owner only.
///
/// A trace is created 0600 because it holds what the app held; a page, an export, a shrunk or
/// saved trace holds the same values, so it is created the same way, whatever the umask.
package enum PrivateFile {
  /// The mode of a trace, and of every file written from one.
  package static let mode: mode_t = 0o600

  /// Why a file could not be written: the system's words.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// Opens `path` for writing, created 0600 or emptied and narrowed to 0600; -1 with `errno`
  /// set when it cannot be.
  package static func open(_ path: String) -> Int32 {
    let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    // An existing file keeps its mode through O_TRUNC: narrow it, as a new one would be.
    if descriptor >= 0 { _ = fchmod(descriptor, mode) }
    return descriptor
  }

  /// Writes `text` to `path` whole: into a new 0600 file beside it, renamed over it once
  /// written, so a reader never sees half of it and a failure leaves the old file.
  package static func write(_ text: String, to path: String) throws(Failure) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array((folder + "." + name + ".XXXXXX").utf8CString)
    // mkstemp creates the file 0600 with O_EXCL: nobody can have prepared it.
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw Failure(description: lastError) }
    let made = template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let temporary = String(decoding: made, as: UTF8.self)
    var text = text
    let written = text.withUTF8 { bytes -> Bool in
      var offset = 0
      while offset < bytes.count {
        let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return false }
        offset += count
      }
      return true
    }
    let problem = written ? nil : lastError
    if close(descriptor) != 0 || !written || rename(temporary, path) != 0 {
      let reason = problem ?? lastError
      unlink(temporary)
      throw Failure(description: reason)
    }
  }

  private static var lastError: String { String(cString: strerror(errno)) }
}
