// The page's javascript lives in a Swift string so the tool is one binary that needs no resources.
// Edit it here; the browser test (.ci/browser-test) checks the page it makes.

/// The viewer page's script: states rebuilt from the patches, the timeline, the list, the tree,
/// the diff, search through history and path history. No network, no libraries.
enum ViewerScript {
  static let javascript = core + analysis

  /// State, timeline, list and tree.
  private static let core = #"""
    "use strict";
    // tca-replay view: everything runs here, from the JSON in #trace-data. Trace text reaches the
    // page only through textContent, never as markup.
    (function () {
    const T0 = performance.now();
    const data = JSON.parse(document.getElementById("trace-data").textContent);
    if (data.format !== 1) { document.body.textContent = "Unknown viewer data format " +
      data.format; return; }
    const steps = data.steps, N = steps.length;
    const $ = (id) => document.getElementById(id);
    function el(tag, cls, text) {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    const positionOfIndex = new Map();
    steps.forEach((s, p) => positionOfIndex.set(s.index, p));

    // ---- Pointers and patches ------------------------------------------------------------
    function parsePointer(p) {
      if (p === "") return [];
      return p.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
    }
    function pointer(tokens) {
      return tokens.map((t) => "/" + String(t).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
    }
    function get(doc, tokens) {
      let v = doc;
      for (const t of tokens) {
        if (v === null || typeof v !== "object") return undefined;
        if (Array.isArray(v)) { const i = +t; if (!(i >= 0 && i < v.length)) return undefined;
          v = v[i]; }
        else { if (!Object.prototype.hasOwnProperty.call(v, t)) return undefined; v = v[t]; }
      }
      return v;
    }
    // Immutable: copies only the containers on the way to the change, so states share the rest.
    function setIn(doc, tokens, k, fn) {
      if (k === tokens.length) return fn(doc);
      const t = tokens[k];
      if (Array.isArray(doc)) {
        const copy = doc.slice(), i = +t;
        if (k === tokens.length - 1) return fn(copy, i, true);
        copy[i] = setIn(doc[i], tokens, k + 1, fn);
        return copy;
      }
      const copy = Object.assign({}, doc);
      if (k === tokens.length - 1) return fn(copy, t, false);
      copy[t] = setIn(doc[t], tokens, k + 1, fn);
      return copy;
    }
    function addAt(doc, tokens, value) {
      if (tokens.length === 0) return value;
      return setIn(doc, tokens, 0, (c, key, isArray) => {
        if (isArray) { if (key === "-" || isNaN(key)) c.push(value); else c.splice(key, 0, value); }
        else c[key] = value;
        return c;
      });
    }
    function removeAt(doc, tokens) {
      return setIn(doc, tokens, 0, (c, key, isArray) => {
        if (isArray) c.splice(key, 1); else delete c[key];
        return c;
      });
    }
    function replaceAt(doc, tokens, value) {
      if (tokens.length === 0) return value;
      return setIn(doc, tokens, 0, (c, key) => { c[key] = value; return c; });
    }
    function applyPatch(doc, patch) {
      for (const op of patch) {
        const path = parsePointer(op.path);
        switch (op.op) {
          case "add": doc = addAt(doc, path, op.value); break;
          case "remove": doc = removeAt(doc, path); break;
          case "replace": doc = replaceAt(doc, path, op.value); break;
          case "move": { const from = parsePointer(op.from); const v = get(doc, from);
            doc = addAt(removeAt(doc, from), path, v); break; }
          case "copy": doc = addAt(doc, path, get(doc, parsePointer(op.from))); break;
          default: break; // test
        }
      }
      return doc;
    }
    // Paths a step changed: its operations other than test (both ends of a move).
    function changedPaths(step) {
      if (step._changed) return step._changed;
      const out = [];
      for (const op of step.patch) {
        if (op.op === "test") continue;
        out.push(op.path);
        if (op.from !== undefined) out.push(op.from);
      }
      return (step._changed = out);
    }
    function related(a, b) { // one pointer is the other or inside it
      return a === b || a.startsWith(b + "/") || b.startsWith(a + "/") || a === "" || b === "";
    }

    // ---- States: checkpoints every 64 steps, built once ----------------------------------
    const EVERY = 64;
    const checkpoints = [];
    (function build() {
      let s = data.initialState;
      for (let p = 0; p < N; p++) {
        if (p % EVERY === 0) checkpoints.push(s);
        s = applyPatch(s, steps[p].patch);
      }
    })();
    let cached = { position: -1, state: data.initialState };
    // The state after the step at position p; -1: the initial state.
    function stateAfter(p) {
      if (p < 0) return data.initialState;
      if (cached.position === p) return cached.state;
      let from, s;
      if (cached.position <= p && cached.position >= p - EVERY && cached.position >= 0) {
        from = cached.position + 1; s = cached.state;
      } else {
        const c = Math.floor(p / EVERY); from = c * EVERY; s = checkpoints[c];
      }
      for (let q = from; q <= p; q++) s = applyPatch(s, steps[q].patch);
      cached = { position: p, state: s };
      return s;
    }

    // ---- Text of values ------------------------------------------------------------------
    function short(v, width) {
      width = width || 80;
      let t = v === undefined ? "(absent)" : JSON.stringify(v);
      if (t === undefined) t = String(v);
      return t.length > width ? t.slice(0, width - 1) + "…" : t;
    }
    function scalarText(v) { return v === null ? "null" : typeof v === "string" ? v : String(v); }
    const stepName = (p) => (p < 0 ? "initial" : String(steps[p].index));
    function resolveStep(text) {
      text = String(text).trim();
      if (text === "initial" || text === "") return -1;
      if (text === "last") return N - 1;
      const p = positionOfIndex.get(+text);
      return p === undefined ? null : p;
    }

    // ---- Effects: spans, laid out in rows ------------------------------------------------
    const times = steps.map((s) => s.time);
    function positionAtTime(t) { // fractional step position for a time
      let lo = 0, hi = N - 1;
      if (N === 0) return 0;
      if (t <= times[0]) return 0;
      if (t >= times[N - 1]) return N - 1 + Math.min(1,
        (t - times[N - 1]) / ((times[N - 1] - times[0]) / N || 1));
      while (lo < hi - 1) { const m = (lo + hi) >> 1; if (times[m] <= t) lo = m; else hi = m; }
      const span = times[hi] - times[lo];
      return lo + (span > 0 ? (t - times[lo]) / span : 0);
    }
    const effects = data.effects.map((e) => {
      const p = positionOfIndex.get(e.step);
      return Object.assign({}, e, { p0: p === undefined ? positionAtTime(e.start) : p,
        p1: Math.max(p === undefined ? 0 : p, positionAtTime(e.end)) });
    });
    const ROWS = 5;
    (function layout() {
      const ends = new Array(ROWS).fill(-Infinity);
      for (const e of effects) {
        let row = ends.findIndex((end) => end < e.p0 - 0.3);
        if (row < 0) row = ends.indexOf(Math.min.apply(null, ends));
        e.row = row; ends[row] = Math.max(ends[row], e.p1);
      }
    })();
    const effectsByStep = new Map();
    for (const e of effects) { if (!effectsByStep.has(e.step)) effectsByStep.set(e.step, []);
      effectsByStep.get(e.step).push(e); }
    const childrenOf = new Map(); // cause index → positions of the steps its effects sent
    steps.forEach((s, p) => { if (s.cause != null) {
      if (!childrenOf.has(s.cause)) childrenOf.set(s.cause, []); childrenOf.get(s.cause).push(p);
      } });
    const crash = data.crash || null;
    const crashPosition = crash ? (() => {
      const i = crash.step != null ? crash.step : crash.index;
      if (i != null && positionOfIndex.has(i)) return positionOfIndex.get(i);
      if (i != null && N && i > steps[N - 1].index) return N - 1 + 0.5;
      return crash.time != null ? positionAtTime(crash.time) : N - 0.5;
    })() : null;

    // ---- Selection -----------------------------------------------------------------------
    let selected = N ? 0 : -1, compareWith = null, picked = null; // picked: pointer tokens
    // Open nodes: those opened by hand, and those above the selected step's changes unless
    // closed by hand. Changes open their ancestors only while their step is selected.
    const expanded = new Set([""]), collapsed = new Set();
    let auto = new Set();
    const isOpen = (path) => expanded.has(path) || (auto.has(path) && !collapsed.has(path));

    function select(p, opts) {
      opts = opts || {};
      p = Math.max(-1, Math.min(N - 1, p));
      const t = performance.now();
      selected = p;
      if (!opts.noHash) history.replaceState(null, "", "#step=" + stepName(p));
      const parts = window.__parts || (window.__parts = {});
      const time = (name, f) => { const a = performance.now(); f(); parts[name] = (parts[name] ||
        0) + performance.now() - a; };
      time("head", renderHead); time("tree", renderTree); time("action", renderAction);
      time("list", () => renderList(true)); time("timeline", () => drawTimeline(true));
      if (compareWith !== null || $("pane-diff").classList.contains("on")) renderDiff();
      window.__lastSelectMs = performance.now() - t;
    }

    // ---- Header --------------------------------------------------------------------------
    const tr = data.trace;
    $("title").textContent = tr.file + " · " + tr.reducer;
    $("meta").textContent = N + " steps · " + effects.length + " effects · started " + tr.started +
      (tr.closed ? "" : " · not closed");
    // The crash record (issue 15): the step being reduced when the process died, with its action.
    if (crash) {
      const banner = el("span", "crash-banner",
        "crashed" + (crash.step != null ? " reducing step " + crash.step : "") +
        (crash.label ? ": " + crash.label : "") + (crash.signal ? " (" + crash.signal + ")" : ""));
      banner.title = crash.action !== undefined ? JSON.stringify(crash.action) : "";
      $("crash-banner").append(banner);
    }
    document.title = tr.file + " · tca-replay view";

    // ---- Action list (virtual: only the visible rows exist) ------------------------------
    const ROW = 22;
    let visible = []; // positions that pass the filters
    function applyFilters() {
      const label = $("f-label").value.toLowerCase(), origin = $("f-origin").value;
      let path = $("f-path").value.trim();
      if (path && !path.startsWith("/")) path = "/" + path;
      visible = [];
      for (let p = 0; p < N; p++) {
        const s = steps[p];
        if (origin && s.origin !== origin) continue;
        if (label && s.label.toLowerCase().indexOf(label) < 0) continue;
        if (path && !changedPaths(s).some((c) => related(c, path))) continue;
        visible.push(p);
      }
      $("list-count").textContent = visible.length === N ? N + " steps" : visible.length + " of " +
        N + " steps";
      $("list-spacer").style.height = visible.length * ROW + "px";
      renderList(true);
    }
    const list = $("list");
    function renderList(scrollToSelection) {
      if (scrollToSelection) {
        const i = lowerBound(visible, selected);
        if (visible[i] === selected) {
          const top = i * ROW;
          if (top < list.scrollTop || top + ROW > list.scrollTop + list.clientHeight)
            list.scrollTop = top - list.clientHeight / 2;
        }
      }
      for (const r of list.querySelectorAll(".row")) r.remove();
      const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
      const last = Math.min(visible.length, first + Math.ceil(list.clientHeight / ROW) + 10);
      const frag = document.createDocumentFragment();
      for (let i = first; i < last; i++) {
        const p = visible[i], s = steps[p];
        const row = el("div", "row" + (p === selected ? " selected" : "") + (p === compareWith ?
          " compare" : ""));
        row.style.top = i * ROW + "px";
        row.dataset.p = p;
        row.append(el("span", "idx", String(s.index)),
          el("span", "o-" + s.origin, s.origin === "send" ? "▶ " : "↳ "), el("span", "", s.label));
        row.title = s.label;
        frag.append(row);
      }
      list.append(frag);
    }
    function lowerBound(a, x) { let lo = 0, hi = a.length; while (lo < hi) { const m = (lo +
      hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; } return lo; }
    list.addEventListener("scroll", () => renderList(false));
    list.addEventListener("click", (e) => {
      const row = e.target.closest(".row"); if (!row) return;
      const p = +row.dataset.p;
      if (e.shiftKey) { compareWith = p; showPane("diff"); renderList(false); renderDiff(); return;
        }
      select(p);
    });
    for (const id of ["f-label", "f-origin", "f-path"]) $(id).addEventListener("input",
      applyFilters);

    // ---- Step heading and action ---------------------------------------------------------
    function link(text, p) {
      const a = el("a", "", text); a.addEventListener("click", () => select(p)); return a;
    }
    function renderHead() {
      const h = $("step-head"); h.textContent = "";
      if (selected < 0) { h.append(el("div", "label", "Initial state (before step " + (N ?
        steps[0].index : 0) + ")")); return; }
      const s = steps[selected];
      h.append(el("div", "label", "Step " + s.index + "  " + s.label));
      const why = el("div", "why");
      why.append(s.origin === "send" ? "sent from outside" : "sent by an effect of ");
      if (s.origin === "effect") {
        if (s.cause == null) why.append("a step not recorded");
        else if (positionOfIndex.has(s.cause)) why.append(link("step " + s.cause,
          positionOfIndex.get(s.cause)));
        else why.append("step " + s.cause + " (not in this page)");
      }
      why.append(" · t=" + s.time.toFixed(6) + "s · " + changedPaths(s).length + " change(s)");
      const kids = childrenOf.get(s.index);
      if (kids) { why.append(" · its effects sent "); kids.slice(0, 8).forEach((p, i) => {
        if (i) why.append(", "); why.append(link(String(steps[p].index), p)); });
        if (kids.length > 8) why.append(" …"); }
      h.append(why);
    }
    function renderAction() {
      const pane = $("pane-action"); pane.textContent = "";
      if (selected < 0) { pane.append(el("p", "note", "The initial state: no action yet.")); return;
        }
      const s = steps[selected];
      pane.append(el("div", "note", "Label"), el("pre", "", s.label));
      pane.append(el("div", "note", "Action (JSON)"),
        el("pre", "", s.action === null ? "null: the action could not be encoded" :
          JSON.stringify(s.action, null, 2)));
      pane.append(el("div", "note", "Patch"), el("pre", "",
        s.patch.map((o) => JSON.stringify(o)).join("\n")));
      const fx = effectsByStep.get(s.index);
      if (fx) pane.append(el("div", "note", "Effects returned"), el("pre", "", fx.map((e) =>
        "effect " + e.id + ": " + e.outcome + " after " + ((e.end - e.start) * 1000).toFixed(3) +
          " ms").join("\n")));
    }

    // ---- State tree (lazy: collapsed nodes have no children in the DOM) ------------------
    const GROUP = 100;
    function renderTree() {
      const tree = $("tree"), scroll = tree.scrollTop; tree.textContent = "";
      const changed = selected >= 0 ? changedPaths(steps[selected]) : [];
      const marks = { exact: new Set(changed), inside: new Set() };
      auto = new Set();
      for (const c of changed) { const t = parsePointer(c); for (let k = 0; k < t.length; k++) {
        const a = pointer(t.slice(0, k)); marks.inside.add(a); auto.add(a); } }
      tree.append(node(null, stateAfter(selected), [], marks));
      tree.scrollTop = scroll;
      const first = tree.querySelector(".line.changed");
      if (first && window.__scrollChanges !== false) first.scrollIntoView({ block: "nearest" });
    }
    function node(key, value, tokens, marks) {
      const path = pointer(tokens);
      const wrap = el("div", "node");
      const line = el("div", "line"); wrap.append(line);
      line.dataset.path = path;
      if (marks.exact.has(path)) line.classList.add("changed");
      else if (marks.inside.has(path)) line.classList.add("inside");
      if (picked !== null && pointer(picked) === path) line.classList.add("picked");
      const isObj = value !== null && typeof value === "object";
      const tw = el("span", "tw", isObj ? (isOpen(path) ? "▾" : "▸") : "");
      line.append(tw);
      if (key !== null) line.append(el("span", "key", String(key)), ": ");
      if (!isObj) { line.append(scalar(value)); }
      else {
        const n = Array.isArray(value) ? value.length : Object.keys(value).length;
        line.append(el("span", "sum", Array.isArray(value) ? "[" + n + "]" : "{" + n + "}" +
          (value.id !== undefined && typeof value.id !== "object" ? " id=" + short(value.id, 40) :
          "")));
        if (isOpen(path)) wrap.append(children(value, tokens, marks));
      }
      if (isObj) line.dataset.obj = "1";
      return wrap;
    }
    function children(value, tokens, marks) {
      const kids = el("div", "kids");
      if (Array.isArray(value) && value.length > GROUP) {
        for (let g = 0; g < value.length; g += GROUP) {
          const gid = pointer(tokens) + "#" + g, hi = Math.min(value.length, g + GROUP) - 1;
          const wrap = el("div", "node"), line = el("div", "line");
          const hasMark = [...marks.inside, ...marks.exact].some((m) => { const t = parsePointer(m);
            return t.length > tokens.length && pointer(t.slice(0,
            tokens.length)) === pointer(tokens) && +t[tokens.length] >= g &&
            +t[tokens.length] <= hi; });
          if (hasMark) { line.classList.add("inside"); auto.add(gid); }
          line.append(el("span", "tw", isOpen(gid) ? "▾" : "▸"), el("span", "sum", "[" + g + " … " +
            hi + "]"));
          line.dataset.group = gid;
          wrap.append(line);
          if (isOpen(gid)) { const k = el("div", "kids"); for (let i = g; i <= hi;
            i++) k.append(node(i, value[i], tokens.concat(String(i)), marks)); wrap.append(k); }
          kids.append(wrap);
        }
        return kids;
      }
      if (Array.isArray(value)) value.forEach((v, i) => kids.append(node(i, v,
        tokens.concat(String(i)), marks)));
      else for (const k of Object.keys(value)) kids.append(node(k, value[k], tokens.concat(k),
        marks));
      return kids;
    }
    // One listener for the whole tree: a node's line holds its path.
    $("tree").addEventListener("click", (e) => {
      const line = e.target.closest(".line"); if (!line) return;
      if (line.dataset.group) { toggle(line.dataset.group); return; }
      const path = line.dataset.path;
      if (line.dataset.obj && (e.target.classList.contains("tw") || e.detail === 2 || e.altKey)) {
        toggle(path); return; }
      if (line.dataset.obj && !isOpen(path)) toggle(path);
      pick(parsePointer(path));
    });
    function scalar(v) {
      if (typeof v === "string") return el("span", "str", JSON.stringify(v));
      if (typeof v === "number") return el("span", "num", String(v));
      return el("span", "lit", String(v));
    }
    function toggle(path) {
      if (isOpen(path)) { expanded.delete(path); collapsed.add(path); } else { expanded.add(path);
        collapsed.delete(path); } window.__scrollChanges = false; renderTree();
        window.__scrollChanges = true; }

    """#
}
