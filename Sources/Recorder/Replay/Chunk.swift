import Foundation

/// A run of consecutive steps handed to one replay thread, with the steps just before it so a
/// divergence can list what led there.
struct Chunk: @unchecked Sendable {
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
    self.capacity = capacity
    ring.reserveCapacity(capacity)
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
final class ChunkQueue: @unchecked Sendable {
  private let condition = NSCondition()
  private var chunks: [Chunk] = []
  private var head = 0
  private var isClosed = false
  private let capacity: Int

  init(capacity: Int) {
    self.capacity = max(1, capacity)
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
