import Architecture
import Synchronization
import TraceJSON

/// Encodes the action a crash interrupted, as a crash record holds it: `"action":…,"label":…`,
/// redacted as the step record would have been.
///
/// The app's thread only keeps the action (``keep(_:)``, a copy under a lock); the recorder's
/// crash thread, which did not crash, encodes it when a crash comes: encoding every action in
/// advance would cost the app's thread as much as the rest of recording.
///
/// The action is kept in a slot of raw memory behind a `Mutex` of concrete type: this code runs
/// unspecialized, where an `Action?` behind the generic `Lock` would look up type metadata and
/// call the lock's unspecialized closure on every step.
final class CrashActionEncoder<Action: Encodable>: @unchecked Sendable {
  private let redactions: [Redaction]
  /// Whether `slot` holds an action; its lock guards the slot.
  private let isKept = Mutex(false)
  private let slot = UnsafeMutablePointer<Action>.allocate(capacity: 1)

  init(redactions: [Redaction]) {
    self.redactions = redactions
  }

  deinit {
    isKept.withLock { isKept in
      if isKept { slot.deinitialize(count: 1) }
    }
    slot.deallocate()
  }

  /// On the app's thread, before reducing: the action a crash would name.
  @inline(__always)
  func keep(_ action: Action) {
    isKept.withLock { isKept in
      if isKept {
        slot.pointee = action
      } else {
        slot.initialize(to: action)
        isKept = true
      }
    }
  }

  /// On the crash thread: the members for the kept action, or `nil` if none was kept.
  func encodeKept() -> [UInt8]? {
    let action: Action? = isKept.withLock { isKept in isKept ? slot.pointee : nil }
    guard let action else { return nil }
    return Self.members(for: action, redactions: redactions)
  }

  /// `"action":…,"label":…` for `action`, redacted by `redactions`.
  static func members(for action: Action, redactions: [Redaction]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64)
    append(#""action":"#, to: &bytes)
    do {
      var json = try JSONValueEncoder.recording.encode(action)
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

/// Encodes a kept action for the crash thread, whatever the action's type.
protocol KeptActionEncoding: AnyObject, Sendable {
  func encodeKept() -> [UInt8]?
}

extension CrashActionEncoder: KeptActionEncoding {}
