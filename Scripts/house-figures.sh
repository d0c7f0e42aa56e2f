#!/usr/bin/env bash
# The house figures of issue 36, one command per row, so a later commit can be measured the same
# way: `Scripts/house-figures.sh` from the package root prints the table; `-v` lists the names.
set -euo pipefail
cd "$(dirname "$0")/.."
verbose="${1:-}"

swift_files() { find "$@" -name '*.swift' -not -name '*.generated.swift' 2>/dev/null; }
# Recorder without its JSON folder (TraceJSON's old home), so the figure survives the move.
recorder() { swift_files Sources/Recorder | grep -v '^Sources/Recorder/JSON/'; }

row() { printf '%-58s %s\n' "$1" "$2"; }

row "Recorder lines (Swift, without JSON/)" "$(recorder | xargs cat | wc -l)"
row "Recorder files" "$(recorder | wc -l)"

# A `package` declaration: `package` as an access modifier, outside comments. Its name is the
# identifier after func/var/let/struct/...; "never named outside" means no Swift file outside
# Sources/Recorder contains that word (a lower bound: a common word like `step` always matches).
python3 - "$verbose" <<'PY'
import os, re, subprocess, sys
verbose = sys.argv[1] == "-v"
def files(roots):
  out = []
  for root in roots:
    for d, _, fs in os.walk(root):
      out += [os.path.join(d, f) for f in fs
              if f.endswith(".swift") and not f.endswith(".generated.swift")]
  return sorted(out)
rec = [f for f in files(["Sources/Recorder"]) if not f.startswith("Sources/Recorder/JSON/")]
decl = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:\w+\s+)*?package(?:\(set\))?\s+"
                  r"(?:(?:static|final|mutating|nonisolated|indirect|override|convenience|"
                  r"required|lazy|private\(set\))\s+)*"
                  r"(func|var|let|struct|class|enum|protocol|typealias|actor|init|subscript|"
                  r"case|extension)\b\s*([A-Za-z_][A-Za-z0-9_]*)?")
decls = []
for f in rec:
  for n, line in enumerate(open(f, encoding="utf-8"), 1):
    if line.lstrip().startswith("//"): continue
    m = decl.match(line)
    if m: decls.append((f, n, m.group(1), m.group(2)))
outside = [f for f in files(["Sources", "Tests", "Examples", "Benchmarks"])
           if not f.startswith("Sources/Recorder/") or f.startswith("Sources/Recorder/JSON/")]
text = "\n".join(open(f, encoding="utf-8").read() for f in outside)
words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
named = [d for d in decls if d[2] not in ("init", "subscript", "extension") and d[3]]
unused = [d for d in named if d[3] not in words]
print(f"{'package declarations in Recorder (without JSON/)':<58} {len(decls)}")
print(f"{'  of them never named outside Recorder':<58} {len(unused)}")
if verbose:
  for f, n, k, name in unused: print(f"    {f}:{n}: {k} {name}")

# Dead declarations: a name declared in Sources (func, var, let, type, case, typealias) whose
# word occurs once in every Swift file of the package: its own declaration. Protocol witnesses
# and @main entry points are named by the compiler, not by text, so they are left out, as is
# public API (a library's users name it, not the package).
allfiles = files(["Sources", "Tests", "Examples", "Benchmarks"])
counts = {}
for f in allfiles:
  for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", open(f, encoding="utf-8").read()):
    counts[w] = counts.get(w, 0) + 1
anydecl = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|"
                     r"fileprivate|static|final|mutating|nonisolated|indirect|override|lazy|"
                     r"private\(set\)|package\(set\)|public\(set\))\s+)*"
                     r"(func|var|let|struct|class|enum|protocol|typealias|actor|case)\s+"
                     r"([A-Za-z_][A-Za-z0-9_]*)")
witness = {"description", "debugDescription", "body", "hash", "encode", "main", "run",
           "makeIterator", "next", "startIndex", "endIndex", "index", "errorDescription",
           "customMirror", "reduce", "callAsFunction", "makeAsyncIterator", "id", "hashValue"}
dead = []
for f in files(["Sources"]):
  for n, line in enumerate(open(f, encoding="utf-8"), 1):
    m = anydecl.match(line)
    if not m or "override" in line or "public " in line: continue
    name = m.group(2)
    if name in witness or name == "_": continue
    if counts.get(name, 0) == 1: dead.append((f, n, m.group(1), name))
print(f"{'dead declarations (name occurs only where declared)':<58} {len(dead)}")
if verbose:
  for f, n, k, name in dead: print(f"    {f}:{n}: {k} {name}")
PY

# Readers: the types whose job is reading a trace file, as Architecture.md's reader table names
# them: Reader/Index/Follower/Scan types of Reading/ and Replay/Chunk.swift (not SwiftValueReader,
# which reads a value, nor private helpers).
readers=$(grep -rhoE '^\s*(package |public )(final )?(class|struct|enum|actor) \w*(Reader|Index|Follower|Scan|Chunk)\b' \
  Sources/Recorder/Reading Sources/Recorder/Replay/Chunk.swift 2>/dev/null \
  | awk '{print $NF}' | grep -v '^SwiftValueReader$' | sort -u || true)
row "readers (trace-reading types)" "$(echo "$readers" | grep -c . || true) ($(echo $readers))"

# Places that print values: the types named like a printer whose own files (`Type.swift`,
# `Type+*.swift`) lay text out, joining items or breaking lines outside comments, and the viewer's
# port. A type that only drives another's layout (SwiftRenderer, SwiftValue's compilable mode) or
# prints nothing (LineDiff, the alignment under DiffRenderer) is listed apart. Architecture's
# printers show live values (TestStore, by Mirror); Recorder's and values.js, trace values.
named=$(grep -rhoE '^\s*(public |package |final |indirect )*(struct|class|enum) (\w*(Renderer|Dumper|LineDiff)|SwiftValue)\b' \
  Sources --include='*.swift' | awk '{print $NF}' | sort -u || true)
live=""; trace=""; none=""
for type in $named; do
  files=$(find Sources \( -name "$type.swift" -o -name "$type+*.swift" \))
  layouts=$(grep -hv '^\s*//' $files | grep -cE 'joined\(separator:|\\n' || true)
  if [ "$layouts" = 0 ]; then none="$none $type"
  elif echo "$files" | grep -q '^Sources/Architecture/'; then live="$live $type"
  else trace="$trace $type"; fi
done
js=$(find Sources -name values.js | wc -l)
count() { echo $# ; }
places="live values (TestStore):$live; trace values:$trace values.js×$js"
row "places that print values (types + values.js)" \
  "$(( $(count $live) + $(count $trace) + js )) ($places)"
row "  named like printers, laying out no value themselves" "$(count $none) (${none# })"

# Host options: where an option's spelling is declared, and where the 30-second default is.
for option in --host --timeout --host-log; do
  row "declarations of $option" \
    "$(grep -rhE "\"$option\"" Sources --include='*.swift' | wc -l)"
done
row "places writing the 30-second host default" \
  "$(grep -rhE '\.seconds\(30\)' Sources --include='*.swift' | wc -l)"

row "@unchecked Sendable in Sources" \
  "$(grep -rh '@unchecked Sendable' Sources --include='*.swift' | grep -cv '^\s*//' || true)"
# A why is a `// unchecked:` line at most three lines above (attributes may sit between).
row "  of them with an '// unchecked:' why" "$(python3 - <<'PY'
import os
found = 0
for d, _, fs in os.walk("Sources"):
  for f in fs:
    if not f.endswith(".swift"): continue
    lines = open(os.path.join(d, f), encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
      if "@unchecked Sendable" in line and not line.lstrip().startswith("//"):
        found += any("// unchecked:" in l for l in lines[max(0, i - 3):i])
print(found)
PY
)"
