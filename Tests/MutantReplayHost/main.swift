import Foundation
import LongSessionApps
import Recorder
import ReplayMutants

// A replay host serving the examples with one deliberate change, named by the first argument:
// `mutant-replay-host saved-date-dropped`. The tests drive it through `tca-replay`.
let name = CommandLine.arguments.dropFirst().first ?? ""
// `mutant-replay-host record <pantry-force-unwrap|unchanged> <trace>` records the pantry's
// session through that reducer instead: the force-unwrap crashes at step 3, leaving a trace that
// ends in a crash record, as an app's would.
if name == "record", CommandLine.arguments.count == 4 {
  // A crashing test child must not spend time writing a core file.
  var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
  setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
  let path = CommandLine.arguments[3]
  switch Mutant(rawValue: CommandLine.arguments[2]) {
  case .pantryForceUnwrap?: try PantryFeature.recordSession(through: PantryForceUnwrap(), to: path)
  case .unchanged?: try PantryFeature.recordSession(through: PantryFeature(), to: path)
  default:
    print("usage: mutant-replay-host record <pantry-force-unwrap|unchanged> <trace>")
    exit(64)
  }
  exit(0)
}
// `mutant-replay-host record-long <app> <steps> <trace>` records the long sessions `shrink` is
// tested on; the elevator's dies at its last step, the trapping typing indicator's in an effect.
if name == "record-long", CommandLine.arguments.count == 5, let steps = Int(CommandLine.arguments[3]) {
  var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
  setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
  let path = CommandLine.arguments[4]
  switch CommandLine.arguments[2] {
  case "elevator-resume-trap":
    try ElevatorFeature.recordSession(through: ElevatorResumeTrap(), steps: steps, to: path)
  case "greenhouse": try GreenhouseFeature.recordSession(steps: steps, to: path)
  case "typing": try await TypingIndicator.recordSession(through: TypingIndicator(), steps: steps, to: path)
  case "typing-stop-trap":
    try await TypingIndicator.recordSession(through: TypingIndicatorStopTrap(), steps: steps, to: path)
  case "chat-room":  // The long session of issue 35's bar: its own length, 442 steps.
    _ = try await LongSession.chatRoom.record(to: path)
  default:
    print(
      "usage: mutant-replay-host record-long "
        + "<elevator-resume-trap|greenhouse|typing|typing-stop-trap|chat-room> <steps> <trace>")
    exit(64)
  }
  exit(0)
}
// `shrink-apps` serves the elevator and the greenhouse with their changes; `shrink-apps-unchanged`
// without.
if name == "shrink-apps" {
  ReplayHost.run([ReplayTarget(ElevatorResumeTrap()), ReplayTarget(GreenhouseVentedHarvest())])
}
if name == "shrink-apps-unchanged" {
  ReplayHost.run([ReplayTarget(ElevatorFeature()), ReplayTarget(GreenhouseFeature())])
}
// The typing indicator without `cancelInFlight`, with the trap on the debounce's action, and as
// written.
if name == "typing-no-cancel-in-flight" { ReplayHost.run([ReplayTarget(TypingIndicatorNoCancelInFlight())]) }
if name == "typing-stop-trap" { ReplayHost.run([ReplayTarget(TypingIndicatorStopTrap())]) }
if name == "typing-unchanged" { ReplayHost.run([ReplayTarget(TypingIndicator())]) }
// The chat room as recorded, and with typing that never expires.
if name == "chat-room-unchanged" { ChatRoomHost.run(expiresTyping: true) }
if name == "chat-room-keeping-typists" { ChatRoomHost.run(expiresTyping: false) }
// The journal's mutants (effects, dependency reads, redaction) serve the journal alone.
if let journal = JournalMutant(rawValue: name) { ReplayHost.run([journal.target]) }
guard let mutant = Mutant(rawValue: name) else {
  let names = (Mutant.allCases.map(\.rawValue) + JournalMutant.allCases.map(\.rawValue))
    .joined(separator: ", ")
  print("usage: mutant-replay-host <\(names)>")
  exit(64)
}
ReplayHost.run(mutant.targets)
