import TraceJSON

/// A step as `tca-replay log --json` lists it: its record less `kind`, `patch`, `deps` and
/// `types`, with `"replayable"` last, in the record's member order.
///
/// Written in three parts so that a full scan can keep the parts a line's shape fixes: the
/// numbers (index, time, clock, cause, effects), then `middle` (the action and the label),
/// then `tail` (the effect names and `replayable`). Both the checked reader's path and the
/// scan's write through ``write(index:time:clock:origin:middle:effects:tail:to:)``, so their
/// lines are the same bytes.
enum StepListing {
  /// Appends the whole listing.
  static func write(
    index: Int, time: Double, clock: Double?, origin: TraceStep.Origin,
    middle: UnsafeBufferPointer<UInt8>, effects: [Int], tail: UnsafeBufferPointer<UInt8>,
    to out: inout [UInt8]
  ) {
    append(#"{"index":"#, to: &out)
    JSONTextWriter.appendInteger(Int64(index), to: &out)
    append(#","time":"#, to: &out)
    JSONTextWriter.appendDouble(time, to: &out)
    if let clock {
      append(#","clock":"#, to: &out)
      JSONTextWriter.appendDouble(clock, to: &out)
    }
    switch origin {
    case .send:
      append(#","origin":"send""#, to: &out)
    case .effect(let cause):
      append(#","origin":"effect","cause":"#, to: &out)
      if let cause {
        JSONTextWriter.appendInteger(Int64(cause), to: &out)
      } else {
        append("null", to: &out)
      }
    }
    out.append(contentsOf: middle)
    if !effects.isEmpty {
      append(#","effects":["#, to: &out)
      for (position, effect) in effects.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONTextWriter.appendInteger(Int64(effect), to: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    out.append(contentsOf: tail)
  }

  /// `,"action":…,"label":…`, from the values.
  static func middle(action: JSONValue?, label: String) -> [UInt8] {
    var out: [UInt8] = []
    append(#","action":"#, to: &out)
    JSONTextWriter.writeCompact(action ?? .null, to: &out)
    append(#","label":"#, to: &out)
    JSONTextWriter.appendString(label, to: &out)
    return out
  }

  /// `,"cancels":[…],"cancellable":[…],"replayable":…}`, each list only when it has names.
  static func tail(cancels: [String], cancellable: [String], isReplayable: Bool) -> [UInt8] {
    var out: [UInt8] = []
    if !cancels.isEmpty {
      append(#","cancels":"#, to: &out)
      JSONTextWriter.writeCompact(.array(cancels.map(JSONValue.string)), to: &out)
    }
    if !cancellable.isEmpty {
      append(#","cancellable":"#, to: &out)
      JSONTextWriter.writeCompact(.array(cancellable.map(JSONValue.string)), to: &out)
    }
    append(isReplayable ? #","replayable":true}"# : #","replayable":false}"#, to: &out)
    return out
  }

  private static func append(_ text: StaticString, to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}

extension TraceStep {
  /// The step as `tca-replay log --json` lists it: its record less `kind`, `patch`, `deps` and
  /// `types`, with `"replayable"` last.
  package var listingJSON: String { ScannedStep(listing: self).json }
}
