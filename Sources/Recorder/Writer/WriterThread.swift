import Foundation

/// Moves recorded events off the app's thread: the app enqueues, one background thread turns
/// events into lines, in order, and writes them.
///
/// The queue is bounded. When it is full, `enqueue` waits for room: the app slows down rather
/// than losing a step.
///
/// The app does not wake the writer for each event: waking a sleeping thread is a system call
/// that costs more than recording the step itself. So after its last batch the writer naps: it looks at the queue every
/// `napInterval` by itself, for up to `napWindow`, and only then sleeps until it is woken. Steps
/// that come while it naps reach the sink within a nap; the app wakes it only from a deep sleep,
/// when 64 events are queued, or to wait on it (`drain`, `finish`, a full queue).
///
/// Events wait in a buffer of raw memory rather than an array: in this generic class, every
/// access to an `[Event]` looked up the array's type metadata, which was most of the cost of
/// enqueueing. The writer swaps the filled buffer for its empty spare and processes it outside
/// the lock.
// unchecked: its vars are read and written only under `condition`
final class WriterThread<Event>: @unchecked Sendable {
  private let condition = NSCondition()
  // Guarded by `condition`; the lock, not a run-time check, makes access exclusive.
  @exclusivity(unchecked) private var queue: EventBuffer<Event>
  @exclusivity(unchecked) private var spare: EventBuffer<Event>
  @exclusivity(unchecked) private var isBusy = false
  @exclusivity(unchecked) private var isNapping = false
  @exclusivity(unchecked) private var isAsleep = false
  @exclusivity(unchecked) private var isWoken = false
  @exclusivity(unchecked) private var isClosing = false
  @exclusivity(unchecked) private var isFinished = false
  @exclusivity(unchecked) private var failure: (any Error)?
  /// How many events may wait: `capacity`, or fewer when events are big or slow to process
  /// (see ``adjust(bytesPerEvent:)``).
  @exclusivity(unchecked) private var limit: Int
  /// What the queue and the batch being processed may hold together, in bytes.
  private let byteBudget: Int
  /// How long the writer may take to get through a full queue, in seconds.
  private let latencyBudget: Double
  /// The latest estimates of one event's size and processing time; written by the writer.
  @exclusivity(unchecked) private var bytesPerEvent = 0
  @exclusivity(unchecked) private var secondsPerEvent = 0.0
  private let capacity: Int
  /// How many queued events wake a napping writer. A nap is a wall-clock deadline: one that
  /// started just before the clock was turned back lasts until the clock catches up, so the
  /// queue must not rely on naps ending.
  private let wakeThreshold: Int
  private let napInterval: TimeInterval
  private let napWindow: TimeInterval
  private let process: (UnsafeMutableBufferPointer<Event>) throws -> Void

  /// Starts the thread; `process` runs on it with each batch of events, in order. The events
  /// are destroyed after `process` returns.
  ///
  /// After a batch, the thread looks for more every `napInterval` seconds for `napWindow`
  /// seconds, then sleeps until an event wakes it.
  ///
  /// The queue holds at most `capacity` events, and fewer when the events are big: the queue
  /// and the batch being processed hold about `byteBudget` bytes at most. It also holds no more
  /// events than the writer gets through in `latencyBudget` seconds, so an event waits at most
  /// about twice that long before it is processed.
  init(
    capacity: Int, name: String, napInterval: TimeInterval = 0.001, napWindow: TimeInterval = 0.25,
    byteBudget: Int = .max, latencyBudget: TimeInterval = .infinity,
    process: @escaping (UnsafeMutableBufferPointer<Event>) throws -> Void
  ) {
    self.capacity = max(1, capacity)
    limit = self.capacity
    self.byteBudget = max(1, byteBudget)
    self.latencyBudget = latencyBudget
    wakeThreshold = min(64, (self.capacity &+ 1) / 2)
    self.napInterval = napInterval
    self.napWindow = napWindow
    self.process = process
    queue = EventBuffer(capacity: min(self.capacity, 64))
    spare = EventBuffer(capacity: min(self.capacity, 64))
    let thread = Thread { [unowned self] in self.run() }
    thread.name = name
    thread.start()
  }

  deinit {
    queue.destroy()
    spare.destroy()
  }

  /// Hands `event` to the thread, waiting while the queue is full.
  func enqueue(_ event: consuming Event) {
    condition.lock()
    while queue.count >= limit && !isFinished {
      wakeWriter()
      condition.wait()
    }
    if !isFinished {
      queue.append(event, limit: capacity)
      // A napping writer finds the event by itself; a burst wakes it early, once.
      if isAsleep || queue.count == wakeThreshold { wakeWriter() }
    }
    condition.unlock()
  }

  /// Waits until every event enqueued so far has been processed; throws a processing error
  /// that happened since the last one thrown, once.
  func drain() throws {
    condition.lock()
    defer { condition.unlock() }
    waitUntilIdle()
    if let failure {
      self.failure = nil
      throw failure
    }
  }

  /// Waits until every event enqueued so far has been processed, keeping any error for
  /// `drain` or `finish` to throw.
  func waitForQueue() {
    condition.lock()
    waitUntilIdle()
    condition.unlock()
  }

  /// Called with the lock held.
  private func waitUntilIdle() {
    while (queue.count > 0 || isBusy) && !isFinished {
      wakeWriter()
      condition.wait()
    }
  }

  /// Tells the queue how big an event is, about, so that it holds no more than its byte
  /// budget; called by `process`, on the writer's thread.
  func adjust(bytesPerEvent bytes: Int) {
    condition.lock()
    bytesPerEvent = max(0, bytes)
    updateLimit()
    condition.unlock()
  }

  /// Called with the lock held. Half the byte budget each for the queue and the batch.
  private func updateLimit() {
    var newLimit = capacity
    if bytesPerEvent > 0 { newLimit = min(newLimit, byteBudget / 2 / bytesPerEvent) }
    if secondsPerEvent > 0, latencyBudget.isFinite {
      newLimit = min(newLimit, Int(min(latencyBudget / secondsPerEvent, Double(capacity))))
    }
    limit = max(1, newLimit)
    // A lower limit keeps waiting apps waiting; a higher one lets them on.
    condition.broadcast()
  }


  /// Processes what is queued, then stops the thread.
  func finish() throws {
    condition.lock()
    isClosing = true
    condition.broadcast()
    while !isFinished {
      condition.wait()
    }
    let failure = self.failure
    self.failure = nil
    condition.unlock()
    if let failure { throw failure }
  }

  /// Whether the writer naps: it looks for events by itself at the end of the nap.
  var isNappingNow: Bool {
    condition.lock()
    defer { condition.unlock() }
    return isNapping
  }

  /// Whether the writer has stopped napping and sleeps until an event or a wait wakes it.
  var isAsleepUntilWoken: Bool {
    condition.lock()
    defer { condition.unlock() }
    return isAsleep
  }

  /// Wakes the writer if it naps or sleeps and nobody has woken it since its last batch; called
  /// with the lock held.
  private func wakeWriter() {
    guard !isBusy && !isWoken else { return }
    isWoken = true
    condition.broadcast()
  }

  private func run() {
    let clock = ContinuousClock()
    let napWindow = Duration.seconds(self.napWindow)
    var lastBatch = clock.now
    while true {
      condition.lock()
      while queue.count == 0 && !isClosing {
        if clock.now - lastBatch < napWindow {
          isNapping = true
          _ = condition.wait(until: Date(timeIntervalSinceNow: napInterval))
          isNapping = false
        } else {
          isAsleep = true
          condition.wait()
          isAsleep = false
        }
      }
      if queue.count == 0 && isClosing {
        isFinished = true
        condition.broadcast()
        condition.unlock()
        return
      }
      swap(&queue, &spare)
      let batch = spare
      isBusy = true
      isWoken = false
      condition.broadcast()
      condition.unlock()

      var error: (any Error)?
      let started = clock.now
      do { try process(batch.events) } catch let thrown { error = thrown }
      let count = batch.count
      batch.removeAll()

      lastBatch = clock.now
      let seconds = Double((lastBatch - started) / .nanoseconds(1)) * 1e-9 / Double(max(1, count))
      condition.lock()
      spare.count = 0
      isBusy = false
      if let error, failure == nil { failure = error }
      // The latest batch counts most: a state that grew makes each event slower at once.
      secondsPerEvent =
        secondsPerEvent == 0 ? seconds : max(seconds, (secondsPerEvent + seconds) / 2)
      if latencyBudget.isFinite { updateLimit() }
      condition.broadcast()
      condition.unlock()
    }
  }
}

/// A growable run of events in raw memory; its owner destroys it.
private struct EventBuffer<Event> {
  var start: UnsafeMutablePointer<Event>
  var count = 0
  var capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    start = .allocate(capacity: capacity)
  }

  var events: UnsafeMutableBufferPointer<Event> {
    UnsafeMutableBufferPointer(start: start, count: count)
  }

  /// Appends, doubling the room (up to `limit`) when it is full.
  // Inlined into the writer's unspecialized `enqueue`: called, it made the app thread look up
  // this buffer's generic metadata on every event.
  @inline(__always)
  mutating func append(_ event: consuming Event, limit: Int) {
    if count == capacity {
      let newCapacity = max(count + 1, min(2 * capacity, limit))
      let moved = UnsafeMutablePointer<Event>.allocate(capacity: newCapacity)
      moved.moveInitialize(from: start, count: count)
      start.deallocate()
      start = moved
      capacity = newCapacity
    }
    (start + count).initialize(to: event)
    count += 1
  }

  /// Destroys the events; the count is reset by the owner, under its lock.
  func removeAll() {
    start.deinitialize(count: count)
  }

  func destroy() {
    start.deinitialize(count: count)
    start.deallocate()
  }
}
