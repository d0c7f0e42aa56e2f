/// Encodes, on the app's thread, the action about to be reduced, as a crash record holds it:
/// `"action":…,"label":…`, redacted as the step record will be.
///
/// An action equal (`==`) to the previous one is not encoded again: the bytes already in the
/// crash slot are still right.
final class CrashActionEncoder<Action: Encodable> {
  private let encoder = JSONValueEncoder()
  private let redactions: [Redaction]
  private let last = UnsafeMutablePointer<Action>.allocate(capacity: 1)
  private var hasLast = false
  private let actionsAreEqual = equality(of: Action.self)
  private var bytes: [UInt8] = []

  init(redactions: [Redaction]) {
    self.redactions = redactions
  }

  deinit {
    if hasLast { last.deinitialize(count: 1) }
    last.deallocate()
  }

  /// The members for `action`, or `nil` when it equals the previous action.
  func encodeIfNew(_ action: Action) -> [UInt8]? {
    if hasLast, let actionsAreEqual,
      withUnsafePointer(to: action, { actionsAreEqual(last, $0) })
    {
      return nil
    }
    bytes.removeAll(keepingCapacity: true)
    append(#""action":"#)
    do {
      var json = try encoder.encode(action)
      Redaction.apply(redactions, to: &json, isState: false)
      json.serialize(into: &bytes)
      append(#","label":"#)
      JSONTextWriter.appendString(ActionLabel.make(from: json), to: &bytes)
    } catch {
      append(#"null,"label":"#)
      JSONTextWriter.appendString(
        RecordingSession<Bool, Action>.fallbackLabel(for: action), to: &bytes)
    }
    if actionsAreEqual != nil {
      if hasLast { last.pointee = action } else { last.initialize(to: action) }
      hasLast = true
    }
    return bytes
  }

  private func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }
}
