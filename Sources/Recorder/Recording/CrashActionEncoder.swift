/// Encodes, on the app's thread, the action about to be reduced, as a crash record holds it:
/// `"action":…,"label":…`, redacted as the step record will be.
///
/// Apps send the same few actions again and again (a counter's two buttons, a timer's tick):
/// an action equal (`==`) to one of the last four is not encoded again, its bytes are reused.
final class CrashActionEncoder<Action: Encodable> {
  private let encoder = JSONValueEncoder()
  private let redactions: [Redaction]
  /// The recent actions, most recent first, in raw memory: an array of a generic element type
  /// looks up its type metadata on every access.
  private let recentActions = UnsafeMutablePointer<Action>.allocate(capacity: recentCapacity)
  private var recentBytes: [[UInt8]] = []
  private static var recentCapacity: Int { 4 }
  private let actionsAreEqual = equality(of: Action.self)

  init(redactions: [Redaction]) {
    self.redactions = redactions
  }

  deinit {
    recentActions.deinitialize(count: recentBytes.count)
    recentActions.deallocate()
  }

  /// The members for `action`, or `nil` when it equals the action of the previous call, whose
  /// bytes the crash slot still holds.
  func encodeIfNew(_ action: Action) -> [UInt8]? {
    if let actionsAreEqual {
      let found = withUnsafePointer(to: action) { action in
        (0..<recentBytes.count).first { actionsAreEqual(recentActions + $0, action) }
      }
      if let found {
        guard found > 0 else { return nil }
        // Most recent first: the slot will hold this one.
        let bytes = recentBytes.remove(at: found)
        recentBytes.insert(bytes, at: 0)
        let moved = (recentActions + found).move()
        (recentActions + 1).moveInitialize(from: recentActions, count: found)
        recentActions.initialize(to: moved)
        return bytes
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64)
    append(#""action":"#, to: &bytes)
    do {
      var json = try encoder.encode(action)
      Redaction.apply(redactions, to: &json, isState: false)
      json.serialize(into: &bytes)
      append(#","label":"#, to: &bytes)
      JSONTextWriter.appendString(ActionLabel.make(from: json), to: &bytes)
    } catch {
      append(#"null,"label":"#, to: &bytes)
      JSONTextWriter.appendString(
        RecordingSession<Bool, Action>.fallbackLabel(for: action), to: &bytes)
    }
    if actionsAreEqual != nil { remember(action, bytes) }
    return bytes
  }

  /// Puts the action first among the recent ones, dropping the oldest if there are too many.
  private func remember(_ action: Action, _ bytes: [UInt8]) {
    var count = recentBytes.count
    if count == Self.recentCapacity {
      (recentActions + count - 1).deinitialize(count: 1)
      recentBytes.removeLast()
      count -= 1
    }
    (recentActions + 1).moveInitialize(from: recentActions, count: count)
    recentActions.initialize(to: action)
    recentBytes.insert(bytes, at: 0)
  }

  private func append(_ text: StaticString, to bytes: inout [UInt8]) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }
}
