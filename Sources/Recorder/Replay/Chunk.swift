import Synchronization
import Foundation

/// What the thread that reads a trace hands to a replay thread.
enum Work: Sendable {
  /// Steps already parsed, with their states.
  case parsed(Chunk)
  /// Lines to parse, from a keyframe on.
  case raw(RawChunk)
}

/// A run of a trace's lines, handed unparsed to a replay thread, which rebuilds the states from
/// the keyframe or initial state at its start and checks every line as ``CheckedTraceReader``
/// does.
///
/// A run that a keyframe ends holds that keyframe as its last line too, so the thread checks it
/// against the state it rebuilt, and the next run starts from it trusted: the checks of all the
/// runs together are those of one reader from the first line, and the earliest failing line is
/// the first problem in the trace.
struct RawChunk {
  /// Enough steps that each chunk is worth a hand-over; chunks end where a keyframe starts,
  /// so with keyframes every 100 steps a chunk is 100 steps.
  static let size = 64

  /// The lines, each with its newline.
  private(set) var bytes: [UInt8] = []
  /// The number of the first line in the trace.
  let firstLine: Int
  /// The checks, from the state before the first line: the header's, or the keyframe's that
  /// is the first line.
  let checker: TraceChecker
  /// The lines of the steps just before this chunk, oldest first, for divergence reports.
  let context: [[UInt8]]
  /// How many of the lines are steps.
  private(set) var steps = 0

  init(firstLine: Int, checker: TraceChecker, context: [[UInt8]]) {
    self.firstLine = firstLine
    self.checker = checker
    self.context = context
    bytes.reserveCapacity(Self.size * 320)
  }

  mutating func append(_ line: ArraySlice<UInt8>, isStep: Bool) {
    bytes.append(contentsOf: line)
    bytes.append(10)
    if isStep { steps += 1 }
  }

  /// The last `count` step lines up to the end of this chunk, with those of its context.
  func lastSteps(_ count: Int, prefix: [UInt8]) -> [[UInt8]] {
    guard count > 0 else { return [] }
    var found: [[UInt8]] = []
    var end = bytes.count - 1  // The newline ending the last line.
    while end > 0, found.count < count {
      let start = (bytes[..<end].lastIndex(of: 10) ?? -1) + 1
      let line = bytes[start..<end]
      if line.starts(with: prefix) { found.append(Array(line)) }
      end = start - 1
    }
    return Array((context + found.reversed()).suffix(count))
  }

  /// Calls `body` with each line and its number.
  func forEachLine(_ body: (ArraySlice<UInt8>, Int) throws(ReplayError) -> Void)
    throws(ReplayError)
  {
    var start = 0
    var number = firstLine
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
      try body(bytes[start..<end], number)
      start = end + 1
      number += 1
    }
  }
}

/// A run of consecutive steps handed to one replay thread, with the steps just before it so a
/// divergence can list what led there.
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
  private var chunks: [Work] = []
  private var head = 0
  private var isClosed = false
  private let capacity: Int
  /// Steps the replay threads have reduced, and who hears of each.
  private let replayedSteps = Mutex(0)
  private let progress: (@Sendable (Int) -> Void)?

  init(capacity: Int, progress: (@Sendable (Int) -> Void)? = nil) {
    self.capacity = max(1, capacity)
    self.progress = progress
  }

  /// A replay thread reduced a step: progress counts the steps reduced, so a host whose
  /// reducer is slow still shows it is working while its queue is full.
  func stepReplayed() {
    guard let progress else { return }
    progress(replayedSteps.withLock { count in
      count += 1
      return count
    })
  }

  /// Adds a chunk, waiting while the queue is full.
  func put(_ chunk: Work) {
    condition.lock()
    defer { condition.unlock() }
    while chunks.count - head >= capacity { condition.wait() }
    chunks.append(chunk)
    condition.broadcast()
  }

  /// The next chunk, waiting for one; `nil` once the queue is closed and empty.
  func take() -> Work? {
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
