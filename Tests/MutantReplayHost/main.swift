import Foundation
import Recorder
import ReplayMutants

// A replay host serving the examples with one deliberate change, named by the first argument:
// `mutant-replay-host saved-date-dropped`. The tests drive it through `tca-replay`.
let name = CommandLine.arguments.dropFirst().first ?? ""
// The journal's mutants (effects, dependency reads, redaction) serve the journal alone.
if let journal = JournalMutant(rawValue: name) { ReplayHost.run([journal.target]) }
guard let mutant = Mutant(rawValue: name) else {
  let names = (Mutant.allCases.map(\.rawValue) + JournalMutant.allCases.map(\.rawValue))
    .joined(separator: ", ")
  print("usage: mutant-replay-host <\(names)>")
  exit(64)
}
ReplayHost.run(mutant.targets)
