import Foundation

/// Moves recorded events off the app's thread: the app enqueues, one background thread turns
/// events into lines, in order, and writes them.
///
/// The queue is bounded. When it is full, `enqueue` waits for room: the app slows down rather
/// than losing a step.
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
  @exclusivity(unchecked) private var consumerIsWaiting = false
  @exclusivity(unchecked) private var isClosing = false
  @exclusivity(unchecked) private var isFinished = false
  @exclusivity(unchecked) private var failure: (any Error)?
  private let capacity: Int
  private let process: (UnsafeMutableBufferPointer<Event>) throws -> Void

  /// Starts the thread; `process` runs on it with each batch of events, in order. The events
  /// are destroyed after `process` returns.
  init(
    capacity: Int, name: String,
    process: @escaping (UnsafeMutableBufferPointer<Event>) throws -> Void
  ) {
    self.capacity = max(1, capacity)
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
      condition.wait()
    }
    if !isFinished {
      queue.append(event, limit: capacity)
      // Waking the writer costs a system call; only pay it when it sleeps.
      if consumerIsWaiting { condition.broadcast() }
    }
    condition.unlock()
  }

  /// Waits until every event enqueued so far has been processed; rethrows a processing error.
  func drain() throws {
    condition.lock()
    defer { condition.unlock() }
    while (queue.count > 0 || isBusy) && !isFinished {
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

  private func run() {
    while true {
      condition.lock()
      while queue.count == 0 && !isClosing {
        consumerIsWaiting = true
        condition.wait()
        consumerIsWaiting = false
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
      condition.broadcast()
      condition.unlock()

      var error: (any Error)?
      do { try process(batch.events) } catch let thrown { error = thrown }
      batch.removeAll()

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
