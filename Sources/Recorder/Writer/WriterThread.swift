import Foundation

/// Moves recorded events off the app's thread: the app enqueues, one background thread turns
/// events into lines, in order, and writes them.
///
/// The queue is bounded. When it is full, `enqueue` waits for room: the app slows down rather
/// than losing a step.
///
/// The app does not wake the writer for each event. Waking a sleeping thread is a system call
/// that cost more than recording the step itself (about 2.5 µs on the benchmark machine, against
/// 0.5 µs). So after its last batch the writer naps: it looks at the queue every
/// `napInterval` by itself, for up to `napWindow`, and only then sleeps until it is woken. Steps
/// that come while it naps reach the sink within a nap; the app wakes it only from a deep sleep,
/// when 64 events are queued, or to wait on it (`drain`, `finish`, a full queue).
///
/// Events wait in a buffer of raw memory rather than an array: in this generic class, every
/// access to an `[Event]` looked up the array's type metadata, which was most of the cost of
/// enqueueing. The writer swaps the filled buffer for its empty spare and processes it outside
/// the lock.
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
  init(
    capacity: Int, name: String, napInterval: TimeInterval = 0.001, napWindow: TimeInterval = 0.25,
    process: @escaping (UnsafeMutableBufferPointer<Event>) throws -> Void
  ) {
    self.capacity = max(1, capacity)
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
    while queue.count >= capacity && !isFinished {
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

  /// Waits until every event enqueued so far has been processed; rethrows a processing error.
  func drain() throws {
    condition.lock()
    defer { condition.unlock() }
    while (queue.count > 0 || isBusy) && !isFinished {
      wakeWriter()
      condition.wait()
    }
    if let failure { throw failure }
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
      do { try process(batch.events) } catch let thrown { error = thrown }
      batch.removeAll()

      lastBatch = clock.now
      condition.lock()
      spare.count = 0
      isBusy = false
      if let error, failure == nil { failure = error }
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
