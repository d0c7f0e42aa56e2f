#!/bin/sh
# Finds the commit that broke a reducer with `git bisect run tca-replay verify …`.
#
# Builds a throwaway git repository (in a temporary folder) holding the counter example, its
# replay host and the trace Traces/counter.ndjson, then a history of six commits, one of which
# changes how the counter handles a failed fact request. `git bisect run` replays the trace at
# each commit it tries and names the commit that introduced the divergence.
#
# With `crash`, that commit force-unwraps the fact, which is nil when a request fails: the
# reducer traps at the step, `verify` reports "step N … crashed the reducer" and exits 1, and
# `git bisect run` names the commit that introduced the crash.
#
#   Scripts/bisect-demo.sh            # from the package root; takes about a minute the first time
#   Scripts/bisect-demo.sh crash      # the same history, with a crash in place of the change
#   KEEP=1 Scripts/bisect-demo.sh     # keep the throwaway repository to look around
set -eu
change=${1:-state}
case "$change" in
  state | crash) ;;
  *) echo "usage: Scripts/bisect-demo.sh [state|crash]" >&2; exit 64 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
demo=$(mktemp -d "${TMPDIR:-/tmp}/tca-replay-bisect-demo.XXXXXX")
if [ "${KEEP:-}" = "" ]; then trap 'rm -rf "$demo"' EXIT; fi

echo "== building tca-replay"
swift build --package-path "$root" --product tca-replay >/dev/null
tool="$root/.build/debug/tca-replay"

echo "== a throwaway repository in $demo"
cd "$demo"
git init -q
git config user.name "Demo"
git config user.email "demo@example.com"
mkdir -p Sources/Counter Sources/counter-replay-host Traces
cp "$root/Examples/Counter/CounterFeature.swift" "$root/Examples/Counter/NumberFactClient.swift" \
  Sources/Counter/
cp "$root/Traces/counter.ndjson" Traces/
cat > Package.swift <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "bisect-demo",
  platforms: [.macOS(.v14)],
  dependencies: [.package(path: "$root")],
  targets: [
    .target(
      name: "Counter",
      dependencies: [.product(name: "Architecture", package: "$(basename "$root")")]
    ),
    .executableTarget(
      name: "counter-replay-host",
      dependencies: ["Counter", .product(name: "Recorder", package: "$(basename "$root")")]
    ),
  ]
)
SWIFT
cat > Sources/counter-replay-host/main.swift <<'SWIFT'
import Counter
import Recorder

ReplayHost.run(CounterFeature())
SWIFT
printf '.build/\n' > .gitignore
git add -A
git commit -qm "Counter, its replay host, and a recorded session"
good=$(git rev-parse --short HEAD)

# Five more commits; the third changes behaviour.
echo "# Counter" > README.md
git add -A && git commit -qm "README"

perl -0pi -e 's/(    case decrementButtonTapped\n)/    case doubleButtonTapped\n$1/; s/(      case \.factButtonTapped:\n)/      case .doubleButtonTapped:\n        state.count *= 2\n        state.fact = nil\n        return .none\n\n$1/' \
  Sources/Counter/CounterFeature.swift
git add -A && git commit -qm "Counter: a button that doubles the count"

if [ "$change" = crash ]; then
  # The fact is nil while a request is in flight: the force-unwrap traps.
  perl -0pi -e 's/state\.factError = message/state.factError = message + " (after " + state.fact! + ")"/' \
    Sources/Counter/CounterFeature.swift
  git add -A && git commit -qm "Counter: a failed fact request mentions the last fact"
else
  perl -0pi -e 's/state\.factError = message/state.fact = message/' Sources/Counter/CounterFeature.swift
  git add -A && git commit -qm "Counter: show a failed fact request where the fact goes"
fi

echo "Replay the recorded session with tca-replay." >> README.md
git add -A && git commit -qm "README: how to replay"

perl -0pi -e 's/(      case \.timerTick:\n)/      \/\/ One tick a second while the timer runs.\n$1/' Sources/Counter/CounterFeature.swift
git add -A && git commit -qm "Counter: comment the timer"

echo "== history"
git log --oneline

echo "== building the host once, so each bisect step only rebuilds the counter"
swift build --product counter-replay-host >/dev/null 2>&1

echo "== git bisect run tca-replay verify Traces --host .build/debug/counter-replay-host"
git bisect start HEAD "$good"
# A commit that does not build cannot be tested: 125 tells git bisect to skip it.
git bisect run sh -c "swift build --product counter-replay-host >/dev/null 2>&1 || exit 125; \
  '$tool' verify Traces --host .build/debug/counter-replay-host"
git bisect reset
