import Foundation

/// `verify --jobs 2` against `--jobs 1` over a folder of 200 counter recordings, as the built
/// tool runs them with the examples' replay host (issue 28's target: at most 0.75×).
@MainActor
func verifyJobsBenchmarks(_ harness: Harness, steps: Int) -> [Table] {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let tool = folder.appendingPathComponent("tca-replay").path
  let host = folder.appendingPathComponent("example-replay-host").path
  for binary in [tool, host] where !FileManager.default.isExecutableFile(atPath: binary) {
    print("warning: \(binary) is missing: `swift build -c release` first")
  }
  let traces = verifyFolder(recordings: 200, steps: steps)
  var table = Table(
    title: "verify of 200 counter recordings of \(steps) steps, by jobs, load " + loadAverage())
  let one = "verify --jobs 1 (baseline)"
  for jobs in [1, 2] {
    let name = jobs == 1 ? one : "verify --jobs \(jobs)"
    table.add(name, harness.measure(operations: 1) { () } _: { _, _ in
      run([tool, "verify", traces, "--host", host, "--jobs", String(jobs)])
    }, baseline: jobs == 1 ? nil : one)
  }
  table.title += " → " + loadAverage()
  return [table]
}

/// A folder of `recordings` copies of one counter session, made once and reused.
@MainActor
private func verifyFolder(recordings: Int, steps: Int) -> String {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("tca-replay-benchmark-verify-\(recordings)x\(steps)").path
  if FileManager.default.fileExists(atPath: folder) { return folder }
  let session = recordedCounterSession(steps: steps)
  try! FileManager.default.createDirectory(
    atPath: folder + ".partial", withIntermediateDirectories: true)
  for number in 0..<recordings {
    try! FileManager.default.copyItem(
      atPath: session, toPath: folder + ".partial/counter-\(number).ndjson")
  }
  try! FileManager.default.moveItem(atPath: folder + ".partial", toPath: folder)
  return folder
}
