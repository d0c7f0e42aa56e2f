import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One folder for the files a test process writes, removed when the process exits, so that a
/// run does not leave hundreds of files in the temporary directory.
public enum Scratch {
  /// This process's folder, made on first use.
  public static let root: URL = {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tca-replay-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: Scratch.root) }
    return folder
  }()

  /// This process's environment with `TMPDIR` at ``root``: what tests start children with, so
  /// that what a child leaves behind (a crashed host's log, which the tool keeps to name it)
  /// goes too. Swift's backtracer is off: many children crash on purpose, and symbolicating
  /// each costs a second of CPU; a test that reads a backtrace turns it back on.
  public static let environment: [String: String] = {
    var variables = ProcessInfo.processInfo.environment
    variables["TMPDIR"] = root.path
    variables["SWIFT_BACKTRACE"] = "enable=no"
    return variables
  }()

  /// A fresh path under ``root`` whose name starts with `prefix`; nothing is created there.
  public static func url(_ prefix: String) -> URL {
    root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  }
}
