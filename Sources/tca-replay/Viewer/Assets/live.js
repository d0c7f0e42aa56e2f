"use strict";
// tca-replay view --serve: the page's event stream. The first event, `header`, carries the
// trace's names and initial state: the viewer (viewer-*.js, as startViewer) starts from it with
// no steps, and every later event is handed to it in batches, at most one per 16 ms, so a
// recording at a thousand steps a second redraws the page sixty times a second, not a thousand.
// EventSource reconnects by itself, sending the last event's id (a step's index), and the server
// resumes after it; a step at or before the last one held is dropped, so none is shown twice.
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const status = document.createElement("span");
  status.id = "live-status";
  status.style.cssText = "margin-left:1em;padding:0 .5em;border-radius:4px;font-size:12px";
  document.querySelector("header").append(status);
  function show(text, color) { status.textContent = text; status.style.background = color; }
  show("connecting…", "#eee");

  // For .ci/browser_check.py: when each step was drawn (wall clock, ms), with #bench in the
  // address; and the page's state, always.
  const bench = /(^|[#&])bench\b/.test(location.hash);
  const live = window.__live = { steps: 0, lastIndex: null, ended: null, drawn: bench ? [] : null,
    reconnects: 0 };

  let viewer = null, pending = null, timer = null;
  const empty = () => ({ steps: [], effects: [], crash: null, closed: false });
  function queue(fill) {
    if (!pending) pending = empty();
    fill(pending);
    if (timer === null) timer = setTimeout(flush, 16);
  }
  function flush() {
    timer = null;
    if (!viewer || !pending) return;
    const batch = pending; pending = null;
    viewer.grow(batch);
    live.steps += batch.steps.length;
    if (batch.steps.length) live.lastIndex = batch.steps[batch.steps.length - 1].index;
    document.body.dataset.liveSteps = String(live.steps);
    if (live.drawn && batch.steps.length) {
      const first = batch.steps[0].index, last = live.lastIndex;
      requestAnimationFrame(() => live.drawn.push([first, last,
        performance.timeOrigin + performance.now()]));
    }
  }

  const source = new EventSource("/events?token=" + encodeURIComponent(token));
  source.addEventListener("open", () => { if (!live.ended) show("live", "#d5f5dc"); });
  source.addEventListener("error", () => {
    if (live.ended) return;
    if (source.readyState === EventSource.CLOSED) {
      show("disconnected: the server refused the stream; open the URL tca-replay printed",
        "#f8d0d0");
    } else { live.reconnects++; show("reconnecting…", "#fbe9b7"); }
  });
  source.addEventListener("header", (e) => {
    if (viewer) return; // a reconnect that resumed from the start
    const header = JSON.parse(e.data);
    document.getElementById("trace-data").textContent = JSON.stringify({ format: 1,
      trace: header.trace, initialState: header.initialState, types: header.types || {},
      steps: [], effects: [], endTime: 0 });
    startViewer();
    viewer = window.__viewer;
  });
  // A long session repeats the same paths and short strings in every patch: one copy of each
  // (up to 65,536 of them) instead of one per step keeps 100,000 steps of the ledger in 40%
  // less heap. What the page shows is unchanged.
  const strings = new Map();
  function one(text) {
    if (typeof text !== "string" || text.length > 40) return text;
    const held = strings.get(text);
    if (held !== undefined) return held;
    if (strings.size < 65536) strings.set(text, text);
    return text;
  }
  function share(step) {
    for (const op of step.patch) {
      op.op = one(op.op); op.path = one(op.path);
      if (typeof op.value === "string") op.value = one(op.value);
      if (op.from !== undefined) op.from = one(op.from);
    }
    return step;
  }
  source.addEventListener("step", (e) => {
    const step = share(JSON.parse(e.data)), held = pending && pending.steps.length ?
      pending.steps[pending.steps.length - 1].index : live.lastIndex;
    if (held !== null && step.index <= held) return;
    queue((b) => b.steps.push(step));
  });
  source.addEventListener("effect", (e) => queue((b) => b.effects.push(JSON.parse(e.data))));
  function finish(text, color) {
    source.close(); live.ended = text; show(text, color);
    document.body.dataset.liveEnded = text;
  }
  source.addEventListener("end", () => { queue((b) => { b.closed = true; }); flush();
    finish("recording ended", "#e4e4e8"); });
  source.addEventListener("crash", (e) => { queue((b) => { b.crash = JSON.parse(e.data); });
    flush();
    finish("the app crashed", "#f8d0d0"); });
  source.addEventListener("broken", (e) => {
    flush(); finish("the trace broke: " + JSON.parse(e.data).message, "#f8d0d0");
  });
  // Changed by (view --serve --host): the diff of one step names the reducer, file and line
  // that wrote each path, from the server's `blame` of the step. A row of a value that was
  // written whole takes that write; a row of a value written inside takes each write inside.
  if (document.body.hasAttribute("data-what-if")) {
    window.changedBy = function (step, rows) {
      const query = "?token=" + encodeURIComponent(token) + "&step=" + step;
      fetch("/blame" + query).then((r) => r.ok ? r.json() : r.text().then((t) => {
        throw t.trim(); })).then((blame) => {
        for (const [path, cell] of rows) {
          const exact = blame.changes.find((c) => c.path === path);
          const outer = blame.changes.filter((c) => path.startsWith(c.path + "/"))
            .sort((x, y) => y.path.length - x.path.length)[0];
          const inner = blame.changes.filter((c) => c.path.startsWith(path + "/"));
          const by = exact ? exact.by : outer ? outer.by : [...new Set(inner.flatMap((c) =>
            c.by))];
          cell.textContent = by.length ? by.join(" and ") : "no instrumented reducer";
        }
      }).catch((problem) => {
        const text = typeof problem === "string" ? problem : "the server did not answer";
        for (const [, cell] of rows) cell.textContent = "";
        if (rows.length) rows[0][1].textContent = text;
      });
    };
  }
  // What if (view --serve --host): the recording with one step changed, run through today's
  // reducer by the server's replay host; the answer is what the stepper prints.
  if (document.body.hasAttribute("data-what-if")) {
    const form = document.createElement("form"), input = document.createElement("input");
    const run = document.createElement("button"), save = document.createElement("a");
    const out = document.createElement("pre");
    form.id = "what-if"; form.style.cssText = "padding:4px 8px;border-top:1px solid #ccc";
    input.size = 48; input.placeholder = "skip 5 · edit 5 .increment · insert 5 {\"reset\":{}}";
    run.textContent = "What if"; save.textContent = "download as a trace"; save.hidden = true;
    save.style.marginLeft = "8px";
    out.style.cssText = "max-height:30vh;overflow:auto;margin:4px 0";
    form.append("What if: ", input, run, save, out);
    document.body.append(form);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const query = "?token=" + encodeURIComponent(token) + "&do=" + encodeURIComponent(input.value);
      out.textContent = "running through today's reducer…"; save.hidden = true;
      fetch("/what-if" + query).then((r) => r.text().then((text) => {
        out.textContent = text; save.href = "/what-if.ndjson" + query;
        save.download = "what-if.ndjson"; save.hidden = !r.ok;
      }), () => { out.textContent = "the server did not answer"; });
    });
  }
})();
