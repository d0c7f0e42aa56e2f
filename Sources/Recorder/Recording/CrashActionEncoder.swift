import Architecture
import Synchronization
import TraceJSON

/// Encodes the action a crash interrupted, as a crash record holds it: `"action":…,"label":…`,
/// redacted as the step record would have been, and what sent it (`"origin":…`).
///
/// The app's thread only keeps the action (``keep(_:)``, a copy under a lock); the recorder's
/// crash thread, which did not crash, encodes it when a crash comes: encoding every action in
/// advance would cost the app's thread as much as the rest of recording.
///
/// The action is kept in a slot of raw memory behind a `Mutex` of concrete type: this code runs
/// unspecialized, where an `Action?` behind the generic `Lock` would look up type metadata and
/// call the lock's unspecialized closure on every step.
// unchecked: `slot` is read and written only under `kept`'s lock
final class CrashActionEncoder<Action: Encodable>: @unchecked Sendable {
  private let redactions: [Redaction]
  /// Whether `slot` holds an action, and what sent it; its lock guards the slot.
  private let kept = Mutex(Kept())
  private let slot = UnsafeMutablePointer<Action>.allocate(capacity: 1)

  init(redactions: [Redaction]) {
    self.redactions = redactions
  }

  deinit {
    kept.withLock { kept in
      if kept.isKept { slot.deinitialize(count: 1) }
    }
    slot.deallocate()
  }

  /// On the app's thread, before reducing: the action a crash would name, and its origin.
  @inline(__always)
  func keep(_ action: Action, origin: TraceStep.Origin) {
    kept.withLock { kept in
      if kept.isKept {
        slot.pointee = action
      } else {
        slot.initialize(to: action)
        kept.isKept = true
      }
      kept.origin = origin
    }
  }

  /// On the crash thread: the members for the kept action, or `nil` if none was kept.
  func encodeKept() -> [UInt8]? {
    let (action, origin): (Action?, TraceStep.Origin) = kept.withLock { kept in
      (kept.isKept ? slot.pointee : nil, kept.origin)
    }
    guard let action else { return nil }
    var bytes = Self.members(for: action, redactions: redactions)
    Self.append(origin: origin, to: &bytes)
    return bytes
  }

  /// `,"origin":"send"` or `,"origin":"effect","cause":…`, as a step record writes them.
  static func append(origin: TraceStep.Origin, to bytes: inout [UInt8]) {
    switch origin {
    case .send:
      append(#","origin":"send""#, to: &bytes)
    case let .effect(cause):
      append(#","origin":"effect","cause":"#, to: &bytes)
      if let cause {
        bytes.append(contentsOf: String(cause).utf8)
      } else {
        append("null", to: &bytes)
      }
    }
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

/// The slot's flag and the kept action's origin, behind one lock.
private struct Kept {
  var isKept = false
  var origin = TraceStep.Origin.send
}

/// Encodes a kept action for the crash thread, whatever the action's type.
protocol KeptActionEncoding: AnyObject, Sendable {
  func encodeKept() -> [UInt8]?
}

extension CrashActionEncoder: KeptActionEncoding {}
