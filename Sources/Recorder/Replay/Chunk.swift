import Synchronization
import Foundation

/// A run of consecutive steps handed to one replay thread, with the steps just before it so a
/// divergence can list what led there: for a trace without keyframes, parsed on one thread.
/// With keyframes, each replay thread reads its own share (``CheckedTraceReader/Scan/runs``).
struct Chunk: Sendable {
  /// Big enough that handing chunks over costs nothing next to replaying them.
  static let size = 512

  var steps: [RecordedStep] = []
  /// The summaries of the steps before the first one, oldest first.
  let earlier: [StepSummary]
  /// How many earlier steps a divergence lists.
  let keep: Int

  init(earlier: [StepSummary], keep: Int) {
    self.earlier = earlier
    self.keep = keep
    steps.reserveCapacity(Self.size)
  }

  /// The summaries of the `keep` steps before `steps[offset]`, oldest first.
  func summaries(before offset: Int) -> [StepSummary] {
    let inside = steps[..<offset].suffix(keep).map { StepSummary($0.step) }
    return Array((earlier + inside).suffix(keep))
  }
}

/// The summaries of the last few steps read.
struct RecentSteps {
  let capacity: Int
  private var ring: [StepSummary] = []
  private var next = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 0)
    // `--context 9223372036854775807` asks for every step, not for that much memory up front.
    ring.reserveCapacity(min(self.capacity, 64))
  }

  mutating func append(_ step: TraceStep) {
    guard capacity > 0 else { return }
    let summary = StepSummary(step)
    if ring.count < capacity {
      ring.append(summary)
    } else {
      ring[next] = summary
    }
    next = (next + 1) % capacity
  }

  /// Oldest first.
  var summaries: [StepSummary] {
    guard ring.count == capacity else { return ring }
    return Array(ring[next...] + ring[..<next])
  }
}

/// A bounded queue of chunks between the thread that reads the trace and those that replay it.
// unchecked: every var is read and written under `condition`
final class ChunkQueue: @unchecked Sendable {
  private let condition = NSCondition()
  private var chunks: [Chunk] = []
  private var head = 0
  private var isClosed = false
  private let capacity: Int
  /// Counts the steps the replay threads reduce.
  let replayed: ReplayedSteps

  init(capacity: Int, replayed: ReplayedSteps) {
    self.capacity = max(1, capacity)
    self.replayed = replayed
  }

  /// Adds a chunk, waiting while the queue is full.
  func put(_ chunk: Chunk) {
    condition.lock()
    defer { condition.unlock() }
    while chunks.count - head >= capacity { condition.wait() }
    chunks.append(chunk)
    condition.broadcast()
  }

  /// The next chunk, waiting for one; `nil` once the queue is closed and empty.
  func take() -> Chunk? {
    condition.lock()
    defer { condition.unlock() }
    while head == chunks.count, !isClosed { condition.wait() }
    guard head < chunks.count else { return nil }
    let chunk = chunks[head]
    head += 1
    if head > 64, head * 2 > chunks.count {
      chunks.removeFirst(head)
      head = 0
    }
    condition.broadcast()
    return chunk
  }

  /// No more chunks will come.
  func close() {
    condition.lock()
    isClosed = true
    condition.broadcast()
    condition.unlock()
  }
}

/// Counts the steps the replay threads reduce: progress hears of each, so a host whose reducer is
/// slow still shows it is working.
final class ReplayedSteps: Sendable {
  private let count = Mutex(0)
  private let progress: (@Sendable (Int) -> Void)?

  init(progress: (@Sendable (Int) -> Void)?) { self.progress = progress }

  /// A replay thread reduced a step.
  func add() {
    guard let progress else { return }
    progress(count.withLock { count in
      count += 1
      return count
    })
  }
}
