import TraceJSON

/// Steps a recorder lost because writing failed (a full disk, an I/O error), declared when
/// writing worked again.
///
/// The steps `from` through `to` are not in the trace; `state` is the state after step `to`,
/// so a reader goes on from there as from a keyframe. The next step, if any, is `to + 1`.
package struct TraceGap: Sendable, Equatable {
  /// The first lost step.
  package var from: Int
  /// The last lost step.
  package var to: Int
  /// Why they were lost: the write error.
  package var reason: String
  /// The state after step `to`.
  package var state: JSONValue

  /// The lost steps' indices.
  package var steps: ClosedRange<Int> { from...to }
}
