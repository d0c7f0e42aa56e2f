import Counter
import Recorder

// A replay host written with nothing but Recorder's public API.
if CommandLine.arguments.count > 5 {
  ReplayHost.run([ReplayTarget(CounterFeature(), withDependencies: { _ in })])
}
_ = ReplayHost.protocolVersion
ReplayHost.run(CounterFeature())
