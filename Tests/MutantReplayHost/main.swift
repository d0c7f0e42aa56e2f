import Foundation
import Recorder
import ReplayMutants

// A replay host serving the examples with one deliberate change, named by the first argument:
// `mutant-replay-host saved-date-dropped`. The tests drive it through `tca-replay`.
let name = CommandLine.arguments.dropFirst().first ?? ""
guard let mutant = Mutant(rawValue: name) else {
  let names = Mutant.allCases.map(\.rawValue).joined(separator: ", ")
  print("usage: mutant-replay-host <\(names)>")
  exit(64)
}
ReplayHost.run(mutant.targets)
