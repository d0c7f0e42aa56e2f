import Architecture
import TraceJSON

/// Notes, while one step is blamed, which composition boundary wrote which path of the root
/// state and which effects each closure returned.
///
/// Each boundary's state is encoded as the recorder encodes it before and after its child runs;
/// a path it changed that no boundary inside it already claimed is its own write. So a closure
/// `Reduce` claims its writes, and a reducer type with its own `reduce(into:action:)` is named
/// by the boundary that ran it.
final class BlameRecorder: BlameListener {
  /// One write: the boundaries from the root to the writer, and the path in the root state.
  struct Write {
    var chain: [BlameFrame]
    /// `nil` when a key path through a computed property hid where the state lies.
    var path: [String]?
    /// The path inside the writer's own state.
    var relative: [String]
  }

  /// An effect a closure returned.
  struct Returned {
    var chain: [BlameFrame]
    var runs: Int
    var cancels: [String]
    var cancellable: [String]
  }

  private(set) var writes: [Write] = []
  private(set) var effects: [Returned] = []
  private var stack: [(frame: BlameFrame, prefix: [String]?)] = []
  private let encoder = JSONValueEncoder.recording

  func run<State, Action>(
    _ frame: BlameFrame, _ state: inout State, _ body: (inout State) -> Effect<Action>
  ) -> Effect<Action> {
    let outer = stack.isEmpty ? [] : stack[stack.count - 1].prefix
    let prefix = outer.flatMap { path in frame.segment.components.map { path + $0 } }
    stack.append((frame, prefix))
    let firstWrite = writes.count
    let firstEffect = effects.count
    let before = encoded(state)
    let effect = body(&state)
    let after = encoded(state)
    let chain = stack.map(\.frame)
    stack.removeLast()

    if before != after {
      let inner = writes[firstWrite...].map(\.path)
      for difference in StateDifference.between(expected: before, actual: after) {
        let relative = difference.path.tokens
        let path = prefix.map { $0 + relative }
        let claimed = inner.contains { other in
          guard let other, let path else { return true }
          return Self.related(other, path)
        }
        if !claimed { writes.append(Write(chain: chain, path: path, relative: relative)) }
      }
    }
    if !effect.isNone, frame.isLeaf || effects.count == firstEffect {
      let facts = effect.cancellation
      effects.append(
        Returned(
          chain: chain, runs: effect.runCount, cancels: facts.cancels,
          cancellable: facts.cancellable))
    }
    return effect
  }

  private func encoded<State>(_ state: State) -> JSONValue {
    (try? encoder.encode(reflectedEncodable(state))) ?? .null
  }

  /// Whether one path lies within the other.
  static func related(_ a: [String], _ b: [String]) -> Bool {
    a.count <= b.count ? b.starts(with: a) : a.starts(with: b)
  }
}
