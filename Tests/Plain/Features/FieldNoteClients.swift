import Architecture

/// Why the microphone could not record.
enum RecorderError: LocalizedError, Equatable {
  case microphoneDenied
  case diskFull

  var errorDescription: String? {
    switch self {
    case .microphoneDenied: return "Field Notes may not use the microphone."
    case .diskFull: return "There is no room left to record."
    }
  }
}

/// Records sound into files and plays them back.
struct AudioClient {
  var play: @Sendable (_ url: URL) async throws -> Bool
  var startRecording: @Sendable (_ url: URL) async throws -> Bool
  var stopRecording: @Sendable () async -> Void
}

extension AudioClient: DependencyKey {
  /// Writes a placeholder file where the recording would go, as there is no microphone here.
  static let liveValue = AudioClient(
    play: { url in FileManager.default.fileExists(atPath: url.path) },
    startRecording: { url in
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true
      )
      guard FileManager.default.createFile(atPath: url.path, contents: Data("RIFF".utf8)) else {
        throw RecorderError.diskFull
      }
      return true
    },
    stopRecording: {}
  )

  static let testValue = AudioClient(
    play: unimplemented("AudioClient.play"),
    startRecording: unimplemented("AudioClient.startRecording"),
    stopRecording: unimplemented("AudioClient.stopRecording")
  )
}

extension DependencyValues {
  var audioClient: AudioClient {
    get { self[AudioClient.self] }
    set { self[AudioClient.self] = newValue }
  }
}
