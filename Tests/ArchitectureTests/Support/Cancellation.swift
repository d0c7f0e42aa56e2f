/// Suspends an effect until the test cancels it, logging the cancellation.
func sleepUntilCancelled(_ name: String, log: EventLog<String>) async {
  do {
    try await Task.sleep(for: .seconds(3600))
    log.append("\(name) woke")
  } catch {
    log.append("\(name) cancelled")
  }
}
