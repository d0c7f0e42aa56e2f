/// Lets other tasks run before this one continues: a woken sleeper's follow-up work, or a task
/// started just before, reaches its next suspension.
///
/// Each hop waits for a detached task of the current priority, queued behind the jobs already
/// waiting on the global executor, so they get a turn. (Not a lower priority: the threads of
/// background work can starve on a busy machine.) Each hop also passes through the main actor,
/// behind the jobs already waiting there: effects send their actions to a store on the main
/// actor, and a woken effect reaches its next sleep only after that store has reduced. Like
/// swift-clocks' "mega yield", this is a heuristic on a multi-threaded executor and exact on a
/// serial one (as TCA's tests use).
func yieldToOtherTasks(hops: Int = 10) async {
  let priority = Task.currentPriority
  for _ in 0..<hops {
    await Task.yield()
    await Task<Void, Never>.detached(priority: priority) { await Task.yield() }.value
    await MainActor.run {}
  }
}
