import Foundation

/// Moves recorded events off the app's thread: the app enqueues, one background thread turns
/// events into lines, in order, and writes them.
///
/// The queue is bounded. When it is full, `enqueue` waits for room: the app slows down rather
/// than losing a step.
final class WriterThread<Event>: @unchecked Sendable {
  private let condition = NSCondition()
  private var queue: [Event] = []
  private var isBusy = false
  private var consumerIsWaiting = false
  private var isClosing = false
  private var isFinished = false
  private var failure: (any Error)?
  private let capacity: Int
  private let process: ([Event]) throws -> Void

  /// Starts the thread; `process` runs on it with each batch of events, in order.
  init(capacity: Int, name: String, process: @escaping ([Event]) throws -> Void) {
    self.capacity = max(1, capacity)
    self.process = process
    let thread = Thread { [unowned self] in self.run() }
    thread.name = name
    thread.start()
  }

  /// Hands `event` to the thread, waiting while the queue is full.
  func enqueue(_ event: Event) {
    condition.lock()
    while queue.count >= capacity && !isFinished {
      condition.wait()
    }
    if !isFinished {
      queue.append(event)
      // Waking the writer costs a system call; only pay it when it sleeps.
      if consumerIsWaiting { condition.broadcast() }
    }
    condition.unlock()
  }

  /// Waits until every event enqueued so far has been processed; rethrows a processing error.
  func drain() throws {
    condition.lock()
    defer { condition.unlock() }
    while (!queue.isEmpty || isBusy) && !isFinished {
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
      while queue.isEmpty && !isClosing {
        consumerIsWaiting = true
        condition.wait()
        consumerIsWaiting = false
      }
      if queue.isEmpty && isClosing {
        isFinished = true
        condition.broadcast()
        condition.unlock()
        return
      }
      let batch = queue
      queue.removeAll(keepingCapacity: true)
      isBusy = true
      condition.broadcast()
      condition.unlock()

      var error: (any Error)?
      do { try process(batch) } catch let thrown { error = thrown }

      condition.lock()
      isBusy = false
      if let error, failure == nil { failure = error }
      condition.broadcast()
      condition.unlock()
    }
  }
}
