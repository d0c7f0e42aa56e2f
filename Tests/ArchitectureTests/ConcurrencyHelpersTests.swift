import Architecture
import Foundation
import Testing

@Suite("Concurrency helpers")
struct ConcurrencyHelpersTests {
  @Test("LockIsolated reads, changes in one transaction, replaces and compares by value")
  func lockIsolated() async {
    let count = LockIsolated(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 { group.addTask { count.withValue { $0 += 1 } } }
    }
    #expect(count.value == 100)
    count.setValue(5)
    #expect(count.value == 5)
    #expect(count == LockIsolated(5))
    #expect(count.hashValue == LockIsolated(5).hashValue)
    let names = LockIsolated(["a"])
    #expect(names.count == 1)
    #expect(names.withValue { $0.append("b"); return $0.count } == 2)
  }

  @Test("ActorIsolated reads, changes in one transaction and replaces")
  func actorIsolated() async {
    let events = ActorIsolated<[String]>([])
    await events.withValue { $0.append("tapped") }
    #expect(await events.value == ["tapped"])
    #expect(await events.count == 1)
    await events.setValue([])
    #expect(await events.value.isEmpty)
  }

  @Test("Task.never suspends until cancelled, then throws CancellationError")
  func taskNever() async {
    let started = LockIsolated(false)
    let returned = LockIsolated(false)
    let task = Task {
      started.setValue(true)
      defer { returned.setValue(true) }
      try await Task.never()
    }
    while !started.value { await Task.yield() }
    await Task.megaYield()
    #expect(!returned.value)
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
  }

  @Test("AsyncStream.never ends only when cancelled; finished ends at once")
  func streams() async {
    var count = 0
    for await _ in AsyncStream<Int>.finished { count += 1 }
    #expect(count == 0)
    let task = Task {
      for await _ in AsyncStream<Int>.never {}
      return Task.isCancelled
    }
    task.cancel()
    #expect(await task.value)
  }

  @Test("UUID(_:) formats the integer as the last 12 hex digits")
  func uuidIntValue() {
    #expect(UUID(0).uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(UUID(10).uuidString == "00000000-0000-0000-0000-00000000000A")
    #expect(UUID(255).uuidString == "00000000-0000-0000-0000-0000000000FF")
  }

  @Test("Identified pairs a value with an id and reads the value's properties")
  func identified() {
    struct Row: Equatable { var title: String }
    var row = Identified(Row(title: "Milk"), id: UUID(1))
    row.title = "Eggs"
    #expect(row.id == UUID(1))
    #expect(row.value == Row(title: "Eggs"))
  }
}
