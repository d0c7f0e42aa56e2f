/// A JSON Patch (RFC 6902): a sequence of operations that turns one JSON document into another.
///
/// The recorder stores each step's state change as a patch produced by
/// ``diff(from:to:)``; such patches are *reversible* (every `remove` and `replace` is preceded
/// by a `test` of the old value), so ``inverted()`` can step backwards through a trace.
///
/// ```swift
/// let patch = JSONPatch.diff(from: before, to: after)
/// try patch.apply(to: before) == after
/// try patch.inverted().apply(to: after) == before
/// ```
public struct JSONPatch: Sendable, Hashable {
  /// The operations, applied in order.
  public var operations: [Operation]

  /// Makes a patch from operations.
  public init(_ operations: [Operation] = []) {
    self.operations = operations
  }

  /// Whether the patch has no operations (and so changes nothing).
  public var isEmpty: Bool { operations.isEmpty }
}
