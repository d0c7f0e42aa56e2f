import TraceJSON

extension StateDifference {
  /// The differences between a recorded and a replayed state, at JSON-path granularity.
  ///
  /// Built on ``JSONPatch/diff(from:to:)``, so identified arrays are compared by `id`: a row
  /// missing from the replay is one difference, not a shift of every row after it. A recorded
  /// value that was redacted is unknown, never a difference, and neither is a member that is
  /// null on one side and absent on the other.
  ///
  /// Given the states' `type` and the trace's `schema`, a difference inside a value whose
  /// encoding is not its Swift shape (a `Duration`'s two integers, a dictionary's flat array of
  /// keys and values, an enum that changed case) is one difference of the whole value.
  static func between(
    expected: JSONValue, actual: JSONValue, type: String? = nil, schema: TypeSchema = TypeSchema()
  ) -> [StateDifference] {
    let differences = between(expected: expected, actual: actual)
    guard let type else { return differences }
    var wholes: Set<JSONPointer> = []
    return differences.compactMap { difference in
      guard let (at, _) = TypeWalk.walk(difference.path, root: type, schema: schema).whole
      else { return difference }
      guard wholes.insert(at).inserted else { return nil }
      return StateDifference(
        path: at, expected: at.resolve(in: expected), actual: at.resolve(in: actual))
    }
  }

  private static func between(expected: JSONValue, actual: JSONValue) -> [StateDifference] {
    let operations = JSONPatch.diff(from: expected, to: actual).operations
    var differences: [StateDifference] = []
    var index = 0
    while index < operations.count {
      let operation = operations[index]
      index += 1
      switch operation {
      case let .test(path, old):
        // Every `replace` and `remove` of a diff follows a `test` of the value it discards.
        guard index < operations.count else { break }
        let next = operations[index]
        index += 1
        switch next {
        case let .replace(_, new): differences.append(.init(path: path, expected: old, actual: new))
        case .remove: differences.append(.init(path: path, expected: old, actual: nil))
        default: index -= 1
        }
      case let .add(path, value):
        differences.append(.init(path: path, expected: nil, actual: value))
      case let .move(from, path):
        differences.append(
          .init(path: from, expected: from.resolve(in: expected), actual: nil, movedTo: path)
        )
      case let .replace(path, value):
        differences.append(.init(path: path, expected: path.resolve(in: expected), actual: value))
      case let .remove(path):
        differences.append(.init(path: path, expected: path.resolve(in: expected), actual: nil))
      case .copy, .splice:
        break  // This diff neither copies nor splices.
      }
    }
    return differences.filter { difference in
      // A member null on one side and absent on the other decodes to `nil` either way: a
      // double optional's `.some(nil)` encodes as null but can only decode as `nil`, which
      // encodes as absent, so a replay started from a decoded state could not match it.
      let nullOrAbsent =
        difference.movedTo == nil
        && [difference.expected, difference.actual].allSatisfy { $0 == nil || $0 == .null }
      return difference.expected != Redaction.placeholder && !nullOrAbsent
    }
  }
}
