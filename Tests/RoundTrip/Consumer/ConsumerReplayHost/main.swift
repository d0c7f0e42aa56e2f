#if canImport(Glibc)
  import Glibc
#endif
import Counter
import Kiln
import Recorder
import RecordingConsumer

// `ConsumerReplayHost record-kiln <steps> <trace>` records the kiln's session and dies of its
// planted crash, as an app in the field would.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "record-kiln",
  let steps = Int(CommandLine.arguments[2])
{
  // NB: a crashing test child must not spend time writing a core file.
  var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
  setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
  try recordKilnSession(steps: steps, toPath: CommandLine.arguments[3])
  exit(0)
}

// A replay host written with nothing but Recorder's public API.
if CommandLine.arguments.count > 5 {
  ReplayHost.run([ReplayTarget(CounterFeature(), withDependencies: { _ in })])
}
_ = ReplayHost.protocolVersion
ReplayHost.run(CounterFeature(), KilnFeature())
