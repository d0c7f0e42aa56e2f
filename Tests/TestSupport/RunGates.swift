import Architecture
import Foundation

/// Effect runs that wait until the test opens their gate, so the test decides the order they
/// end in. A cancelled run stops waiting, and ends as cancelled.
///
/// Shared by the runtime's and the recorder's effect tests.
public final class RunGates: @unchecked Sendable {
  private let lock = NSLock()
  private var opened: Set<String> = []
  private var started: [String] = []
  private var waiting: [String: CheckedContinuation<Void, Never>] = [:]

  public init() {}

  /// The labels of the runs that have started, in the order they started.
  public var startedRuns: [String] { lock.withLock { started } }

  /// Whether the run labelled `label` has started.
  public func hasStarted(_ label: String) -> Bool { lock.withLock { started.contains(label) } }

  /// An effect of one run, labelled `label`, that waits for its gate.
  public func run<Action>(_ label: String) -> Effect<Action> {
    .run { _ in await self.wait(label) }
  }

  /// Waits until `label` is opened or the task is cancelled.
  public func wait(_ label: String) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        lock.withLock {
          started.append(label)
          // Cancellation before this point ran the handler with nothing to resume yet.
          if opened.contains(label) || Task.isCancelled {
            continuation.resume()
          } else {
            waiting[label] = continuation
          }
        }
      }
    } onCancel: {
      lock.withLock { waiting.removeValue(forKey: label) }?.resume()
    }
  }

  /// Lets the run labelled `label` end.
  public func open(_ label: String) {
    lock.withLock {
      opened.insert(label)
      return waiting.removeValue(forKey: label)
    }?.resume()
  }
}
