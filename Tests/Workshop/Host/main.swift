// The workshop's replay host, written as the README says an app's is: its root reducer as the
// app builds it, with no conformance added. `workshop-replay-host 3` serves a bench of three,
// the app after a change to an init parameter, which parts from a recording of a bench of two.
@testable import Workshop
import Recorder

let benchSize = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 2
ReplayHost.run(Workshop(benchSize: benchSize, hourlyRateInPence: 3_000))
