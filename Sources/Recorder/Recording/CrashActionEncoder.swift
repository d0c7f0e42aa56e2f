import Architecture

/// Encodes the action a crash interrupted, as a crash record holds it: `"action":…,"label":…`,
/// redacted as the step record would have been.
///
/// The app's thread only keeps the action (``keep(_:)``, a copy under a lock); the recorder's
/// crash thread, which did not crash, encodes it when a crash comes. Encoding every action in
/// advance cost the app's thread 14 µs a step for a todo toggle, as much as the rest of
/// recording.
final class CrashActionEncoder<Action: Encodable>: @unchecked Sendable {
  private let redactions: [Redaction]
  private let lock = Lock()
  private var pending: Action?

  init(redactions: [Redaction]) {
    self.redactions = redactions
  }

  /// On the app's thread, before reducing: the action a crash would name.
  @inline(__always)
  func keep(_ action: Action) {
    lock.withLock { pending = action }
  }

  /// On the crash thread: the members for the kept action, or `nil` if none was kept.
  func encodeKept() -> [UInt8]? {
    guard let action = lock.withLock({ pending }) else { return nil }
    return Self.members(for: action, redactions: redactions)
  }

  /// `"action":…,"label":…` for `action`, redacted by `redactions`.
  static func members(for action: Action, redactions: [Redaction]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64)
    append(#""action":"#, to: &bytes)
    do {
      var json = try JSONValueEncoder().encode(action)
      Redaction.apply(redactions, to: &json, isState: false)
      json.serialize(into: &bytes)
      append(#","label":"#, to: &bytes)
      JSONTextWriter.appendString(ActionLabel.make(from: json), to: &bytes)
    } catch {
      append(#"null,"label":"#, to: &bytes)
      JSONTextWriter.appendString(
        RecordingSession<Bool, Action>.fallbackLabel(for: action), to: &bytes)
    }
    return bytes
  }

  private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }
}
