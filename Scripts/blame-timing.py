# Times blame requests against one-step run histories on a replay host, after the trace is loaded:
#   python3 Scripts/blame-timing.py .build/debug/example-replay-host Traces/todos.ndjson 1 200
import subprocess, json, time, sys
host = sys.argv[1]; trace = sys.argv[2]; step = int(sys.argv[3]); n = int(sys.argv[4])
t0 = time.time()
p = subprocess.Popen([host], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
hello = p.stdout.readline()
t_hello = time.time() - t0
rid = 0
def ask(req):
    global rid
    rid += 1
    req["id"] = rid
    p.stdin.write((json.dumps(req) + "\n").encode()); p.stdin.flush()
    while True:
        line = json.loads(p.stdout.readline())
        if line.get("id") == rid and line["kind"] != "progress":
            return line
blame = {"kind": "blame", "trace": trace, "step": step}
run = {"kind": "run", "trace": trace, "history": [{"step": step}], "compare": "none"}
ask(dict(blame)); ask(dict(run))  # load the trace once
res = {}
for rnd in range(3):
    for name, req in (("blame", blame), ("run", run)):
        t = time.time()
        for _ in range(n): a = ask(dict(req))
        res.setdefault(name, []).append((time.time() - t) / n * 1e6)
print("hello after %.1f ms" % (t_hello * 1e3))
for k, v in res.items(): print(k, "µs per request:", " ".join("%.0f" % x for x in v), "kind", a["kind"] if k=="run" else "")
p.stdin.write(b'{"kind":"bye"}\n'); p.stdin.flush(); p.wait()
