import TraceJSON

/// One line of a trace.
///
/// Every record is a JSON object whose first member, `kind`, says which record it is. Readers
/// skip kinds they do not know. `Documentation/TraceFormat.md` is the normative description.
package enum TraceRecord: Sendable, Equatable {
  /// The first line: versions, types, fingerprints and the initial state.
  case header(TraceHeader)
  /// One reduced action and the state change it caused.
  case step(TraceStep)
  /// The whole state after a step, so a reader can start there instead of at the beginning.
  case keyframe(TraceKeyframe)
  /// An effect finished or was cancelled (or, in version 1 traces, started).
  case effect(EffectEvent)
  /// The last line of a trace whose recorder was closed cleanly.
  case end(TraceEnd)
  /// Steps lost to a failed write, and the state after them.
  case gap(TraceGap)
  /// The last line of a trace whose process crashed: the signal, and the step it interrupted.
  case crash(TraceCrash)
}

/// The version of the trace format this build writes, and the newest it reads.
///
/// Version 2 records an effect's start in the step that returned it (``TraceStep/effects``)
/// instead of in a `started` effect record of its own. Version 3 records the cancellation ids
/// a step's effect cancels and is cancellable by (``TraceStep/cancels``,
/// ``TraceStep/cancellable``), so a replay can compare them. This build reads versions 1 to 3.
package let traceFormatVersion = 4

/// The first record of a trace.
package struct TraceHeader: Sendable, Equatable {
  /// The trace format version, ``traceFormatVersion`` when written by this build.
  package var version: Int
  /// The tool and version that wrote the trace, e.g. `tca-replay 0.1.0`.
  package var tool: String
  /// The type name of the recorded reducer.
  package var reducer: String
  /// The full type name of the reducer's `State`.
  package var stateType: String
  /// The full type name of the reducer's `Action`.
  package var actionType: String
  /// Fingerprints of the shapes of `State` and `Action`, to tell traces from other builds.
  package var fingerprint: SchemaFingerprint
  /// When recording started, as an ISO 8601 UTC timestamp.
  package var started: String
  /// Keyframes may follow steps whose index plus one is a multiple of this (see the format).
  package var keyframeInterval: Int
  /// The redaction rules applied before anything was written.
  package var redactions: [Redaction]
  /// Free-form facts about the recording: app version, device, user note.
  package var metadata: [String: String]
  /// The index of the first step in this file: 0 unless the file continues a rotated trace.
  package var firstStep: Int
  /// The state before the first step.
  package var initialState: JSONValue
  /// What the recorder knew of the Swift types behind `initialState`: a ``TypeSchema``'s JSON.
  package var types: JSONValue? = nil
  /// The recorded reducer's stored properties that are not `@Dependency`s (`favorite` of
  /// `Favoriting(favorite:)`): what `Feature()` cannot supply, so `gen-test` asks for a factory.
  package var reducerProperties: [String] = []
}

/// Fingerprints of the shapes of a reducer's `State` and `Action` types.
package struct SchemaFingerprint: Sendable, Equatable {
  /// A fingerprint of `State`'s shape.
  package var state: String
  /// A fingerprint of `Action`'s shape.
  package var action: String
}

/// One reduced action.
@usableFromInline
package struct TraceStep: Sendable, Equatable {
  /// Where the action came from.
  @usableFromInline
  package enum Origin: Sendable, Equatable {
    /// Sent from outside the store.
    case send
    /// Sent by an effect returned by step `cause`; `nil` when that step was not recorded.
    case effect(cause: Int?)
  }

  /// The step's position in the trace, from 0.
  package var index: Int
  /// Seconds since recording started.
  package var time: Double
  /// Where the action came from.
  package var origin: Origin
  /// The action, or `nil` when it could not be encoded.
  package var action: JSONValue?
  /// A short readable name for the action, like `.todo(id: 3F2A…9B1C, action: .checkboxTapped)`.
  package var label: String
  /// The change the action made to the state, applicable forwards and, inverted, backwards.
  package var patch: JSONPatch
  /// The values the reducer read from nondeterministic dependencies, in the order it read them.
  package var dependencies: [DependencyValue]
  /// The effects the reducer returned, numbered as in ``EffectEvent/effect``: each started as
  /// the step ended. Empty in version 1 traces, which record starts as effect records.
  package var effects: [Int] = []
  /// Swift types the recorder first met in this step's action or state: a ``TypeSchema``'s
  /// JSON, merged into what the header and earlier steps said.
  package var types: JSONValue? = nil
  /// The cancellation ids the step's effect cancels as it starts (`.cancel(id:)`,
  /// `cancellable(id:cancelInFlight: true)`), as text, sorted. Recorded since version 3.
  package var cancels: [String] = []
  /// The cancellation ids the step's effect's runs can be cancelled by (`cancellable(id:)`), as
  /// text, sorted. Recorded since version 3.
  package var cancellable: [String] = []
  /// Seconds on the store's `continuousClock` when it is a test or immediate clock, from that
  /// clock's start; `nil` with a live clock, whose time is ``time``. What `gen-test` advances a
  /// test's clock by, so that a session recorded on a test clock replays its timers.
  package var clock: Double? = nil

  /// Whether the step can be replayed: its action was encoded.
  package var isReplayable: Bool { action != nil }
}

/// A value a reducer read from a nondeterministic dependency while reducing.
package enum DependencyValue: Sendable, Equatable {
  /// A UUID from `@Dependency(\.uuid)`, as its uppercase string.
  case uuid(String)
  /// A date from `@Dependency(\.date)`, as seconds since 2001-01-01 (Foundation's reference date).
  case date(Double)
  /// A number from `@Dependency(\.withRandomNumberGenerator)`.
  case random(UInt64)
  /// The id `@Dependency(\.stackElementID)` gave a pushed stack element.
  case stackElementID(Int)
  /// `@Dependency(\.locale)`, by its identifier (`fr_FR`), once per step that read it.
  case locale(String)
  /// `@Dependency(\.timeZone)`, by its identifier (`Europe/Paris`), once per step that read it.
  case timeZone(String)
  /// `@Dependency(\.calendar)`, once per step that read it.
  case calendar(RecordedCalendar)
  /// `@Dependency(\.temporaryDirectory)`, as its URL's text, once per step that read it.
  case temporaryDirectory(String)
  /// A key of the app's, read once or more in the step: the trace cannot hold its value (a
  /// client of closures), so a replay pins it or names it as unpinned.
  case client(key: String, property: String?)
}

/// A calendar as a step read it: what `Calendar(identifier:)` needs, and what the machine's
/// settings give it.
package struct RecordedCalendar: Sendable, Equatable {
  /// The calendar's identifier as Foundation encodes it: `gregorian`, `iso8601`.
  package var identifier: String
  /// Its time zone's identifier.
  package var timeZone: String
  /// Its locale's identifier; `nil` when it has none.
  package var locale: String?
  /// The first day of the week, 1 for Sunday.
  package var firstWeekday: Int
  /// The days of the first week of a year.
  var minimumDaysInFirstWeek: Int
}

/// The whole state after a step.
package struct TraceKeyframe: Sendable, Equatable {
  /// The step after which the state was taken.
  package var index: Int
  /// The state after step `index`.
  package var state: JSONValue
}

/// A change in an effect's life.
@usableFromInline
package struct EffectEvent: Sendable, Equatable {
  /// What happened.
  package enum Kind: String, Sendable, Equatable {
    /// Only in version 1 traces; version 2 records starts in ``TraceStep/effects``.
    case started
    case finished, cancelled
  }

  /// What happened.
  package var event: Kind
  /// The effect's number, unique within the trace.
  package var effect: Int
  /// The step whose reducer returned the effect.
  package var step: Int
  /// Seconds since recording started.
  package var time: Double
  /// The `@Dependency` properties the run read, by key path name (`continuousClock`), sorted;
  /// `nil` when the trace does not say (recorded before the member was added).
  package var reads: [String]? = nil
}

/// The last record of a cleanly closed trace.
package struct TraceEnd: Sendable, Equatable {
  /// How many steps the trace holds.
  package var steps: Int
  /// Seconds since recording started.
  package var time: Double
}
