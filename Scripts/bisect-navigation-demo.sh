#!/bin/sh
# Finds the commit that broke a navigation app with `git bisect run tca-replay verify …`.
#
# Builds a throwaway git repository (in a temporary folder) holding the Bookshelf example (a
# sheet, a navigation stack, alerts), its replay host and a session recorded just now by
# today's recorder, then a history of seven commits. One of them drops `cancelInFlight` from
# the notes screen's autosave, which lives in a stack element: only the cancellation ids the
# trace records can tell. Every other commit must verify clean, or bisect blames an innocent
# one. `git bisect run` replays the trace at each commit it tries and names the bad commit.
#
#   Scripts/bisect-navigation-demo.sh         # from the package root; a few minutes the first time
#   KEEP=1 Scripts/bisect-navigation-demo.sh  # keep the throwaway repository to look around
#
# TCA_REPLAY and RECORD_TRACES name built executables to use instead of building them (the
# test that runs this script passes the ones its own build made).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
demo=$(mktemp -d "${TMPDIR:-/tmp}/tca-replay-navigation-demo.XXXXXX")
if [ "${KEEP:-}" = "" ]; then trap 'rm -rf "$demo"' EXIT; fi

if [ -z "${TCA_REPLAY:-}" ] || [ -z "${RECORD_TRACES:-}" ]; then
  echo "== building tca-replay and record-traces"
  swift build --package-path "$root" --product tca-replay >/dev/null
  swift build --package-path "$root" --product record-traces >/dev/null
fi
tool=${TCA_REPLAY:-$root/.build/debug/tca-replay}
record=${RECORD_TRACES:-$root/.build/debug/record-traces}

echo "== a throwaway repository in $demo"
cd "$demo"
git init -q
git config user.name "Demo"
git config user.email "demo@example.com"
git config commit.gpgsign false
mkdir -p Sources/Bookshelf Sources/bookshelf-replay-host Traces
cp "$root"/Examples/Bookshelf/*.swift Sources/Bookshelf/
echo "== recording the Bookshelf session with today's recorder"
"$record" "$demo/recorded" >/dev/null
mv recorded/bookshelf.ndjson Traces/
rm -rf recorded
package=$(basename "$root")
cat > Package.swift <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "navigation-bisect-demo",
  platforms: [.macOS(.v14)],
  dependencies: [.package(path: "$root")],
  targets: [
    .target(
      name: "Bookshelf",
      dependencies: [.product(name: "Architecture", package: "$package")]
    ),
    .executableTarget(
      name: "bookshelf-replay-host",
      dependencies: ["Bookshelf", .product(name: "Recorder", package: "$package")]
    ),
  ]
)
SWIFT
cat > Sources/bookshelf-replay-host/main.swift <<'SWIFT'
import Bookshelf
import Recorder

ReplayHost.run(BookshelfFeature())
SWIFT
printf '.build/\n' > .gitignore
git add -A
git commit -qm "Bookshelf, its replay host, and a recorded session"
good=$(git rev-parse --short HEAD)

# Six more commits; the fourth changes behaviour.
echo "# Bookshelf" > README.md
git add -A && git commit -qm "README"

perl -0pi -e 's/(  enum CancelID \{ case autosave \})/  \/\/ One pending autosave at a time.\n$1/' \
  Sources/Bookshelf/NotesFeature.swift
git add -A && git commit -qm "Notes: say why autosave is cancellable"

perl -0pi -e 's/(public struct BookshelfFeature)/\/\/ The reading list: a sheet to add books, a stack of details and notes.\n$1/' \
  Sources/Bookshelf/BookshelfFeature.swift
git add -A && git commit -qm "Bookshelf: a comment on the feature"

perl -0pi -e 's/\.cancellable\(id: CancelID\.autosave, cancelInFlight: true\)/.cancellable(id: CancelID.autosave)/' \
  Sources/Bookshelf/NotesFeature.swift
git add -A && git commit -qm "Notes: let autosaves overlap"

echo "Replay the recorded session with tca-replay." >> README.md
git add -A && git commit -qm "README: how to replay"

perl -0pi -e 's/(  enum CancelID \{ case readingTimer \})/  \/\/ The timer that counts reading time while the detail is shown.\n$1/' \
  Sources/Bookshelf/BookDetailFeature.swift
git add -A && git commit -qm "Detail: comment the reading timer"

echo "== history"
git log --oneline

echo "== building the host once, so each bisect step only rebuilds the feature"
swift build --product bookshelf-replay-host >/dev/null 2>&1

echo "== git bisect run tca-replay verify Traces --host .build/debug/bookshelf-replay-host"
git bisect start HEAD "$good"
# A commit that does not build cannot be tested: 125 tells git bisect to skip it.
git bisect run sh -c "swift build --product bookshelf-replay-host >/dev/null 2>&1 || exit 125; \
  '$tool' verify Traces --host .build/debug/bookshelf-replay-host"
git bisect reset
