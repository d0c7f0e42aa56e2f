import Foundation
import Synchronization
import Testing

@testable import Recorder

@Suite("The writer thread")
struct WriterThreadTests {
  /// A writer that records the events it processed, in order.
  final class Processed: Sendable {
    let events = Mutex<[Int]>([])

    var count: Int { events.withLock { $0.count } }

    func writer(
      capacity: Int = 256, napInterval: TimeInterval = 0.001, napWindow: TimeInterval
    ) -> WriterThread<Int> {
      WriterThread(
        capacity: capacity, name: "test writer", napInterval: napInterval, napWindow: napWindow
      ) { batch in
        self.events.withLock { $0.append(contentsOf: batch) }
      }
    }
  }

  /// Polls `condition` every millisecond for two minutes or more; whether it became true.
  func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<120_000 {
      if condition() { return true }
      usleep(1_000)
    }
    return condition()
  }

  @Test("events sent while the writer naps are processed without a flush")
  func nappingWriterFindsEvents() throws {
    let processed = Processed()
    // A window far longer than the test: the writer naps throughout and is never put to sleep.
    let writer = processed.writer(napWindow: 3_600)
    writer.enqueue(0)
    try writer.drain()
    for event in 1...3 { writer.enqueue(event) }
    #expect(eventually { processed.count == 4 })
    #expect(!writer.isAsleepUntilWoken)
    try writer.finish()
    #expect(processed.events.withLock { $0 } == [0, 1, 2, 3])
  }

  @Test("after the nap window the writer sleeps, and the next event wakes it")
  func sleepingWriterIsWoken() throws {
    let processed = Processed()
    let writer = processed.writer(napWindow: 0.01)
    writer.enqueue(0)
    #expect(eventually { writer.isAsleepUntilWoken })
    writer.enqueue(1)
    #expect(eventually { processed.count == 2 })
    try writer.finish()
    #expect(processed.events.withLock { $0 } == [0, 1])
  }

  @Test("64 queued events wake a napping writer before its nap ends")
  func burstWakesNappingWriter() throws {
    let processed = Processed()
    // Naps of an hour, as when the wall clock is turned back during one.
    let writer = processed.writer(napInterval: 3_600, napWindow: 3_600)
    writer.enqueue(0)
    try writer.drain()
    #expect(eventually { writer.isNappingNow })
    for event in 1...63 { writer.enqueue(event) }
    #expect(writer.isNappingNow)  // Fewer than 64 queued: not woken.
    #expect(processed.count == 1)
    writer.enqueue(64)
    #expect(eventually { processed.count == 65 })
    try writer.finish()
    #expect(processed.events.withLock { $0 } == Array(0...64))
  }

  @Test("a queue of two, filled while the writer naps, loses and reorders nothing")
  func waitersWakeNappingWriter() throws {
    let processed = Processed()
    let writer = processed.writer(capacity: 2, napWindow: 3_600)
    for event in 0..<1_000 { writer.enqueue(event) }
    try writer.drain()
    #expect(processed.count == 1_000)
    for event in 1_000..<1_010 { writer.enqueue(event) }
    try writer.finish()
    #expect(processed.events.withLock { $0 } == Array(0..<1_010))
  }
}
