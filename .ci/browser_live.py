"""The served viewer (`tca-replay view --serve`) in headless Chromium, for browser_check.py.

A page that updates itself cannot be checked with --dump-dom, so this drives Chromium over the
DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3, replies on fd 4, each
a JSON text ended by a NUL byte), with the standard library only.

check_live: the server refuses requests without the token or with a foreign Host (403), serves
nothing outside the trace, listens on loopback only; the page shows every step of a real
recording through rotation and a crash, once and in order. bench_live: how long after `send`
returns the page shows the step (against `log --follow` on the same recording), and the
browser's memory holding a 100,000-step live session.
"""
import base64
import http.client
import json
import os
import re
import subprocess
import tempfile
import threading
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         "--disable-dev-shm-usage", "--window-size=1400,900"]


class Browser:
    """Headless Chromium driven over --remote-debugging-pipe, one page attached."""

    def __init__(self, browser):
        to_browser, self._in = os.pipe()
        self._out, from_browser = os.pipe()
        # Above 4, so the child's dup2 onto 3 and 4 clobbers none of them.
        to_browser, from_browser = (os.dup(to_browser) if to_browser < 5 else to_browser,
                                    os.dup(from_browser) if from_browser < 5 else from_browser)

        def child():
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)
        self.profile = tempfile.mkdtemp(prefix="live-browser-")
        self.process = subprocess.Popen(
            [browser] + FLAGS + ["--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                                 "about:blank"],
            pass_fds=(3, 4), preexec_fn=child, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._next, self._replies, self._lock = 0, {}, threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        self.send("Page.enable", session=True)
        self.send("Runtime.enable", session=True)

    def _read(self):
        buffer = b""
        while True:
            chunk = os.read(self._out, 1 << 20)
            if not chunk:
                return
            buffer += chunk
            while b"\0" in buffer:
                text, buffer = buffer.split(b"\0", 1)
                message = json.loads(text)
                if "id" in message:
                    with self._lock:
                        self._replies[message["id"]] = message
                        self._lock.notify_all()

    def send(self, method, session=False, **params):
        with self._lock:
            self._next += 1
            number = self._next
        message = {"id": number, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._in, json.dumps(message).encode() + b"\0")
        with self._lock:
            if not self._lock.wait_for(lambda: number in self._replies, timeout=120):
                raise SystemExit(f"browser-test: no reply to {method}")
            reply = self._replies.pop(number)
        if "error" in reply:
            raise SystemExit(f"browser-test: {method}: {reply['error']}")
        return reply["result"]

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", session=True, expression=expression,
                           returnByValue=True)
        return result["result"].get("value")

    def wait_for(self, expression, limit=120):
        """Polls until `expression` is truthy; its value, or None after `limit` seconds (a
        guard against a hang, not a measure of speed)."""
        deadline = time.time() + limit
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        return None

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def memory(self):
        """The page's JS heap after a full collection, the resident memory (PSS) of the page's
        renderer process, and that of every Chromium process, in MB."""
        self.send("HeapProfiler.collectGarbage", session=True)
        heap = self.send("Runtime.getHeapUsage", session=True)
        total = renderer = 0
        for pid in [self.process.pid] + descendants(self.process.pid):
            try:
                pss = sum(int(line.split()[1]) * 1024 for line in
                          open(f"/proc/{pid}/smaps_rollup") if line.startswith("Pss:"))
                command = open(f"/proc/{pid}/cmdline").read()
            except OSError:
                continue
            total += pss
            if "--type=renderer" in command:
                renderer = max(renderer, pss)
        return heap["usedSize"] / 1e6, renderer / 1e6, total / 1e6

    def close(self):
        self.process.kill()
        self.process.wait()
        subprocess.run(["rm", "-rf", self.profile])


def descendants(pid):
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                children += [int(entry)] + descendants(int(entry))
    return children


class Server:
    """`tca-replay view <trace> --serve`, its URL read from the first line it prints."""

    def __init__(self, tool, trace, options=()):
        self.process = subprocess.Popen([tool, "view", trace, "--serve", *options],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        rest = self.url.split("://", 1)[1]
        self.port = int(rest.split("/", 1)[0].split(":")[1])
        self.token = self.url.split("token=", 1)[1]

    def request(self, path, host=None, method="GET"):
        """The status and body of one request over a fresh connection."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.putrequest(method, path, skip_host=True)
        connection.putheader("Host", host or f"127.0.0.1:{self.port}")
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, body

    def listening(self):
        """The local addresses of every socket the server listens on, from /proc/net."""
        inodes = set()
        for fd in os.listdir(f"/proc/{self.process.pid}/fd"):
            try:
                link = os.readlink(f"/proc/{self.process.pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
        found = []
        for table in ("tcp", "tcp6", "udp", "udp6"):
            for line in open(f"/proc/net/{table}").readlines()[1:]:
                fields = line.split()
                listens = fields[3] == "0A" or table.startswith("udp")
                if fields[9] in inodes and listens:
                    found.append((table, fields[1]))
        return found

    def stop(self):
        self.process.send_signal(2)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


def check_live(checks, browser, tool, recorder, out):
    work = tempfile.mkdtemp(prefix="live-")
    trace = os.path.join(work, "ledger.ndjson")
    server = Server(tool, trace)
    token, port = server.token, server.port
    checks.expect(server.url.startswith("http://127.0.0.1:") and len(token) == 64,
                  f"serve: prints its URL first, with a 64-digit token ({server.url[:40]}…)")
    for what, path, host in [
            ("no token", "/", None), ("no token, the stream", "/events", None),
            ("a wrong token", "/?token=" + "0" * 64, None),
            ("a foreign Host", f"/?token={token}", f"evil.example:{port}"),
            ("a foreign Host, the stream", f"/events?token={token}", "evil.example"),
            ("a loopback Host on another port", f"/?token={token}", "127.0.0.1:1")]:
        status, _ = server.request(path, host)
        checks.expect(status == 403, f"serve: a request with {what} gets 403 ({status})")
    for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
        status, _ = server.request(f"/?token={token}", host)
        checks.expect(status == 200, f"serve: Host {host} is served ({status})")
    for path in ("/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/ledger.ndjson",
                 "/" + trace):
        status, body = server.request(f"{path}?token={token}")
        checks.expect(status == 404 and b"root:" not in body,
                      f"serve: {path} gets 404 and nothing of the file ({status})")
    listening = server.listening()
    checks.expect(listening and all(t == "tcp" and a.startswith("0100007F:") for t, a in listening),
                  f"serve: listens on 127.0.0.1 only ({listening})")

    page = Browser(browser)
    try:
        page.send("Page.navigate", session=True, url=server.url)
        status = "(document.getElementById('live-status') || {}).textContent"
        waiting = page.wait_for(f"{status} === 'live' && {status}") or page.evaluate(status)
        checks.expect(waiting == "live", f"serve: the page connects before the trace exists "
                                         f"({waiting})")
        # About 15 steps a segment, some twenty rotations, then a trap in step 300.
        recording = subprocess.Popen([recorder, "--ledger-rotating", "300", "12000", "100",
                                      trace, "--rate", "300", "--trap"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # What a person sees while the app records.
        if page.wait_for("__live.steps >= 100 && !__live.ended"):
            shot = os.path.join(out, "live-recording.png")
            page.screenshot(shot)
            print(f"  screenshot {shot}")
        checks.expect(recording.wait(timeout=120) != 0, "serve: the recording app crashed")
        ended = page.wait_for("document.body.dataset.liveEnded")
        checks.expect(ended == "the app crashed", f"serve: the page says the app crashed ({ended})")
        shown = page.evaluate("JSON.stringify({count: document.getElementById('list-count')"
                              ".textContent, head: document.getElementById('step-head')"
                              ".textContent, crash: document.getElementById('crash-banner')"
                              ".textContent, steps: __live.steps, last: __live.lastIndex})")
        shown = json.loads(shown)
        checks.expect(shown["steps"] == 300 and shown["last"] == 299 and
                      shown["count"] == "300 steps",
                      f"serve: the page holds the 300 steps once ({shown['count']}, "
                      f"{shown['steps']} received, last {shown['last']})")
        order = page.evaluate("(function(){const s=[];for(let p=0;p<300;p++){"
                              "__viewer.select(p,{noHash:true});s.push(+document.getElementById("
                              "'step-head').textContent.split(' ')[1]);}return s;})()")
        checks.expect(order == list(range(300)), "serve: in order, 0 to 299, through rotation")
        checks.expect("crashed reducing step 300" in shown["crash"],
                      f"serve: the crash record appears live ({shown['crash']!r})")
        page.evaluate("__viewer.select(299, {noHash: true})")
        shot = os.path.join(out, "live-crash.png")
        page.screenshot(shot)
        print(f"  screenshot {shot}")
    finally:
        page.close()
        status = server.stop()
        checks.expect(status == 0, f"serve: Ctrl-C stops the server with exit 0 ({status})")
        subprocess.run(["rm", "-rf", work])


def check_what_if(checks, browser, tool, host, out):
    """view --serve --host: the page's What if line runs a skip through the replay host, shows
    where the new history parts from the recording, and offers it as a trace."""
    server = Server(tool, "Traces/counter.ndjson", ["--host", host])
    page = Browser(browser)
    try:
        page.send("Page.navigate", session=True, url=server.url)
        checks.expect(page.wait_for("document.body.dataset.liveEnded") == "recording ended",
                      "what if: the served page shows the finished recording")
        page.evaluate("document.querySelector('#what-if input').value = 'skip 1';"
                      "document.querySelector('#what-if button').click()")
        shown = page.wait_for("(document.querySelector('#what-if pre').textContent"
                              ".includes('parts from') && document.querySelector('#what-if pre')"
                              ".textContent) || ''") or ""
        checks.expect("It parts from the recording at step 2" in shown,
                      f"what if: skip 1 shows where the history parts ({shown[:60]!r})")
        link = page.evaluate("(function(){const a=document.querySelector('#what-if a');"
                             "return a.hidden ? '' : a.getAttribute('href');})()") or ""
        status, body = server.request(link)
        checks.expect(link.startswith("/what-if.ndjson?") and status == 200
                      and body.startswith(b'{"kind":"header"'),
                      f"what if: the new history downloads as a trace ({status}, {link[:30]!r})")
        shot = os.path.join(out, "what-if.png")
        page.screenshot(shot)
        print(f"  screenshot {shot}")
        # One step's diff gets a "changed by" column, from the host's blame of the step.
        page.evaluate("document.querySelector('#tabs [data-pane=diff]').click();"
                      "document.getElementById('diff-a').value = '0';"
                      "document.getElementById('diff-b').value = '1';"
                      "document.getElementById('diff-go').click()")
        by = page.wait_for("(function(){const c=document.querySelector('#diff-out td.by');"
                           "return c && c.textContent !== '…' ? c.textContent : '';})()") or ""
        checks.expect(re.match(r"^\S+\.swift:\d+ \(", by) is not None,
                      f"changed by: the diff of step 1 names the reducer's file and line ({by!r})")
        shot = os.path.join(out, "changed-by.png")
        page.screenshot(shot)
        print(f"  screenshot {shot}")
    finally:
        page.close()
        server.stop()


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def bench_live(browser, tool, recorder, out, rate=1000, seconds=10, memory_steps=100_000):
    """Prints two tables: how long after `send` returns the served page draws the step, against
    `log --follow` on the same recording (the baseline, as Scripts/measure-follow-latency
    measures it); and the memory a 100,000-step live session takes."""
    work = tempfile.mkdtemp(prefix="live-bench-")
    trace, stamps = os.path.join(work, "ledger.ndjson"), os.path.join(work, "stamps")
    server = Server(tool, trace)
    follower = subprocess.Popen([tool, "log", trace, "--follow"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    follower.stderr.readline()  # "waiting for … to appear"
    printed = {}

    def read_follower():
        for line in follower.stdout:
            printed[int(line[:6])] = time.monotonic_ns()
    reader = threading.Thread(target=read_follower, daemon=True)
    reader.start()
    page = Browser(browser)
    try:
        page.send("Page.navigate", session=True, url=server.url + "#bench")
        page.wait_for("(document.getElementById('live-status') || {}).textContent === 'live'")
        # The page stamps on the wall clock, the recorder on CLOCK_MONOTONIC: the offset now.
        offset = sorted(time.time_ns() - time.monotonic_ns() for _ in range(9))[4]
        subprocess.run([recorder, "--ledger-rotating", str(rate * seconds), "1000000", "100",
                        trace, "--rate", str(rate), "--stamps", stamps], check=True)
        page.wait_for("document.body.dataset.liveEnded", limit=300)
        follower.wait(timeout=300)
        reader.join(timeout=60)
        drawn = json.loads(page.evaluate("JSON.stringify(__live.drawn)"))
        load = " ".join(open("/proc/loadavg").read().split()[:3])
    finally:
        page.close()
        server.stop()
    sent = dict(tuple(map(int, line.split())) for line in open(stamps))
    shown = {}
    for first, last, wall_ms in drawn:
        for index in range(first, last + 1):
            shown[index] = wall_ms * 1e6 - offset
    rows = [("`log --follow` prints the step's line (baseline)", printed),
            ("the served page draws the step (`view --serve`, Chromium)", shown)]
    print(f"\n## Live viewer latency: from `send` returning to the step shown "
          f"({rate:,} actions/s for {seconds} s, {rate * seconds:,} steps)\n")
    print("| what | steps seen | p50 | p95 | max | p95 vs baseline |")
    print("|---|---:|---:|---:|---:|---|")
    base = None
    for name, seen in rows:
        latencies = [(seen[i] - sent[i]) / 1e6 for i in sent if i in seen]
        p95 = percentile(latencies, 0.95)
        base = base or p95
        ratio = "baseline" if seen is printed else f"{p95 / base:.2f}× log --follow"
        print(f"| {name} | {len(latencies):,} of {len(sent):,} | {percentile(latencies, 0.5):.1f} ms "
              f"| {p95:.1f} ms | {max(latencies):.1f} ms | {ratio} |")
    print(f"\nload average: {load}")

    # Memory: a long session recorded as fast as the app can, shown whole.
    trace = os.path.join(work, "long.ndjson")
    server = Server(tool, trace)
    page = Browser(browser)
    try:
        page.send("Page.navigate", session=True, url=server.url)
        page.wait_for("(document.getElementById('live-status') || {}).textContent === 'live'")
        empty = page.memory()
        start = time.time()
        subprocess.run([recorder, "--ledger-rotating", str(memory_steps), "4000000", "1000",
                        trace], check=True)
        page.wait_for("document.body.dataset.liveEnded", limit=600)
        caught_up = time.time() - start
        steps = page.evaluate("__live.steps")
        page.evaluate(f"__viewer.select({memory_steps // 2}, {{noHash: true}})")
        full = page.memory()
        server_rss = int(open(f"/proc/{server.process.pid}/status").read().split("VmRSS:")[1]
                         .split()[0]) / 1e3
        trace_bytes = sum(os.path.getsize(os.path.join(work, f)) for f in os.listdir(work)
                          if f.startswith("long.ndjson"))
        page.screenshot(os.path.join(out, "live-100k.png"))
        load = " ".join(open("/proc/loadavg").read().split()[:3])
    finally:
        page.close()
        server.stop()
        subprocess.run(["rm", "-rf", work])
    print(f"\n## Live viewer memory: a {steps:,}-step live session of the ledger "
          f"({trace_bytes / 1e6:.0f} MB of trace; recorded and shown in {caught_up:.0f} s)\n")
    print("| what | no steps yet (baseline) | all steps | growth | all steps vs the 300 MB target |")
    print("|---|---:|---:|---:|---|")
    for name, before, after in [
            ("the page's JS heap, after a full collection", empty[0], full[0]),
            ("the page's renderer process (PSS)", empty[1], full[1]),
            ("every Chromium process (PSS: browser, renderer, GPU, utility)", empty[2], full[2])]:
        print(f"| {name} | {before:.0f} MB | {after:.0f} MB | {after - before:+.0f} MB "
              f"| {after / 300:.2f}× |")
    print(f"| the server, `view --serve` (RSS) | | {server_rss:.0f} MB | | |")
    print(f"\nload average: {load}")
