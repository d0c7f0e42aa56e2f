import Foundation

// Live is the process's temporary directory, which follows `TMPDIR`; a test reading it without
// setting it reports it, as swift-dependencies does, and gets the live directory.
private enum TemporaryDirectoryKey: NamedDependencyKey, RecordedDependencyKey {
  static let propertyName = "temporaryDirectory"
  static var liveValue: URL { URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true) }

  static func tapped(_ value: any Sendable) -> DependencyTap.Value? {
    (value as? URL).map(DependencyTap.Value.temporaryDirectory)
  }
}

extension DependencyValues {
  /// The directory a feature writes scratch files to.
  ///
  /// It is the process's temporary directory in an app (`TMPDIR` on Linux), so it differs
  /// between machines; a recording tapes it and a replay feeds it back. Tests set it:
  ///
  /// ```swift
  /// @Dependency(\.temporaryDirectory) var temporaryDirectory
  /// let url = temporaryDirectory.appendingPathComponent("memo.m4a")
  ///
  /// // In a test:
  /// $0.temporaryDirectory = URL(fileURLWithPath: "/tmp/")
  /// ```
  public var temporaryDirectory: URL {
    get { self[TemporaryDirectoryKey.self] }
    set { self[TemporaryDirectoryKey.self] = newValue }
  }
}
