"use strict";
// tca-replay view: everything runs here, from the JSON in #trace-data. Trace text reaches the
// page only through textContent, never as markup.
(function () {
const T0 = performance.now();
const data = JSON.parse(document.getElementById("trace-data").textContent);
if (data.format !== 1) { document.body.textContent = "Unknown viewer data format " +
  data.format; return; }
const steps = data.steps;
let N = steps.length; // grows in a served page (grow, below)
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

// ---- Values in Swift form, read by the trace's types (values.js) ---------------------
const { swift, shortSwift, typeAt, typeStep, shownWhole, dictionaryArguments, entries,
  unwrapOptional, displayName, TYPES } = makeSwiftForm(data.types || {}, data.trace.stateType);
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
const ROWS = 5, rowEnds = new Array(ROWS).fill(-Infinity);
function place(e) {
  let row = rowEnds.findIndex((end) => end < e.p0 - 0.3);
  if (row < 0) row = rowEnds.indexOf(Math.min.apply(null, rowEnds));
  e.row = row; rowEnds[row] = Math.max(rowEnds[row], e.p1);
}
effects.forEach(place);
const effectsByStep = new Map();
for (const e of effects) { if (!effectsByStep.has(e.step)) effectsByStep.set(e.step, []);
  effectsByStep.get(e.step).push(e); }
const childrenOf = new Map(); // cause index → positions of the steps its effects sent
steps.forEach((s, p) => { if (s.cause != null) {
  if (!childrenOf.has(s.cause)) childrenOf.set(s.cause, []); childrenOf.get(s.cause).push(p);
  } });
let crash = data.crash || null;
const placeCrash = () => crash ? (() => {
  const i = crash.step != null ? crash.step : crash.index;
  if (i != null && positionOfIndex.has(i)) return positionOfIndex.get(i);
  if (i != null && N && i > steps[N - 1].index) return N - 1 + 0.5;
  return crash.time != null ? positionAtTime(crash.time) : N - 0.5;
})() : null;
let crashPosition = placeCrash();

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
const renderMeta = () => { $("meta").textContent = N + " steps · " + effects.length +
  " effects · started " + tr.started + (tr.closed ? "" : " · not closed"); };
renderMeta();
// The crash record (issue 15): the step being reduced when the process died, with its action.
function showCrash() {
  const banner = el("span", "crash-banner",
    "crashed" + (crash.step != null ? " reducing step " + crash.step : "") +
    (crash.label ? ": " + ViewerLabel.visible(crash.label) : "") +
    (crash.signal ? " (" + crash.signal + ")" : ""));
  banner.title = crash.action !== undefined ? JSON.stringify(crash.action) : "";
  $("crash-banner").append(banner);
}
if (crash) showCrash();
document.title = tr.file + " · tca-replay view";

// ---- Action list (virtual: only the visible rows exist) ------------------------------
const ROW = 22;
let visible = []; // positions that pass the filters
function applyFilters() {
  const label = $("f-label").value.toLowerCase(), origin = $("f-origin").value;
  let path = $("f-path").value.trim();
  if (path && !path.startsWith("/")) path = "/" + path;
  passes = (s) => !(origin && s.origin !== origin) && !(label &&
    s.label.toLowerCase().indexOf(label) < 0) && !(path && !changedPaths(s).some((c) =>
    related(c, path)));
  visible = [];
  for (let p = 0; p < N; p++) if (passes(steps[p])) visible.push(p);
  countRows(); renderList(true);
}
let passes = () => true;
function countRows() {
  $("list-count").textContent = visible.length === N ? N + " steps" : visible.length + " of " +
    N + " steps";
  $("list-spacer").style.height = visible.length * ROW + "px";
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
      el("span", "o-" + s.origin, s.origin === "send" ? "▶ " : "↳ "),
      el("span", "label", shortLabel(p, s)));
    row.title = ViewerLabel.visible(s.label);
    frag.append(row);
  }
  list.append(frag);
}
// A row's label shortened to the row's width by ViewerLabel.shorten (label.js), measured in the
// list's font; kept per step until the width changes.
const measure = document.createElement("canvas").getContext("2d");
let shortWidth = -1, shortLabels = new Map();
function shortLabel(p, s) {
  const width = list.clientWidth;
  if (width !== shortWidth) { const style = getComputedStyle(list); shortWidth = width;
    shortLabels = new Map(); measure.font = style.fontSize + " " + style.fontFamily; }
  let text = shortLabels.get(p);
  if (text === undefined) {
    // The row's padding, its index column (44px at least) and its origin mark.
    const room = width - 16 - Math.max(44, measure.measureText(String(s.index)).width) -
      measure.measureText("▶ ").width - 4;
    // No character is narrower than 3px: a longer text is not measured.
    text = ViewerLabel.shorten(s.label, (t) => t.length * 3 <= room &&
      measure.measureText(t).width <= room);
    shortLabels.set(p, text);
  }
  return text;
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
  h.append(el("div", "label", "Step " + s.index + "  " + ViewerLabel.visible(s.label)));
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
  pane.append(el("div", "note", "Label"), el("pre", "", ViewerLabel.visible(s.label)));
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
  const type = typeAt(tokens), whole = type && shownWhole(type);
  const isObj = value !== null && typeof value === "object" && !whole;
  const tw = el("span", "tw", isObj ? (isOpen(path) ? "▾" : "▸") : "");
  line.append(tw);
  if (key !== null) line.append(el("span", "key", String(key)), ": ");
  if (!isObj) { line.append(scalar(value, type)); }
  else {
    const n = Array.isArray(value) ? value.length : Object.keys(value).length;
    const desc = type && TYPES[unwrapOptional(type)];
    const name = desc && desc.struct ? displayName(unwrapOptional(type)) + " " : desc &&
      desc.enum && n === 1 ? "." + Object.keys(value)[0] + " " : "";
    line.append(el("span", "sum", name + (Array.isArray(value) ? "[" + n + "]" : "{" + n + "}") +
      (value.id !== undefined && typeof value.id !== "object" ? " id=" +
      shortSwift(value.id, typeStep({ type }, "id") && typeStep({ type }, "id").type, 40) :
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
function scalar(v, type) {
  const text = shortSwift(v, type, 400);
  if (typeof v === "string" && text.startsWith('"')) return el("span", "str", text);
  if (typeof v === "number" && /^-?[\d.e+]+$/.test(text)) return el("span", "num", text);
  return el("span", "lit", text);
}
function toggle(path) {
  if (isOpen(path)) { expanded.delete(path); collapsed.add(path); } else { expanded.add(path);
    collapsed.delete(path); } window.__scrollChanges = false; renderTree();
    window.__scrollChanges = true; }
// ---- Diff of two steps, side by side -------------------------------------------------
function idOf(v) { return v !== null && typeof v === "object" && !Array.isArray(v) &&
  v.id !== undefined && typeof v.id !== "object" ? JSON.stringify(v.id) : undefined; }
function identified(a) { if (!a.length) return false; const seen = new Set();
  for (const v of a) { const id = idOf(v); if (id === undefined || seen.has(id)) return false;
  seen.add(id); } return true; }
function diffValues(a, b, tokens, out) {
  if (a === b) return;
  if (out.length > 2000) return;
  const type = typeAt(tokens);
  if (type && shownWhole(type)) {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const d = dictionaryArguments(unwrapOptional(type));
    const ea = d && a !== undefined && entries(a, d[0]), eb = d && b !== undefined &&
      entries(b, d[0]);
    if (!ea || !eb) { out.push([tokens, a, b, a === undefined ? "inserted" : b === undefined ?
      "removed" : "changed"]); return; }
    // Entry by entry, named by key: `/cart/quantities[key=13]`.
    const find = (list, k) => list.find((x) => JSON.stringify(x[0]) === JSON.stringify(k));
    const label = (k) => pointer(tokens) + "[key=" + (typeof k === "string" ? k :
      JSON.stringify(k)) + "]";
    for (const [k, v] of eb) { const old = find(ea, k);
      if (!old) out.push([tokens, undefined, v, "inserted", label(k), d[1]]);
      else if (JSON.stringify(old[1]) !== JSON.stringify(v)) out.push([tokens, old[1], v,
        "changed", label(k), d[1]]); }
    for (const [k, v] of ea) if (!find(eb, k)) out.push([tokens, v, undefined, "removed",
      label(k), d[1]]);
    return;
  }
  const ao = a !== null && typeof a === "object", bo = b !== null && typeof b === "object";
  if (ao && bo && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a)) {
      if (identified(a) && identified(b)) {
        const bi = new Map(b.map((v, i) => [idOf(v), i])), ai = new Map(a.map((v,
          i) => [idOf(v), i]));
        a.forEach((v, i) => { const j = bi.get(idOf(v));
          if (j === undefined) out.push([tokens.concat(String(i)), v, undefined, "removed"]);
          else { if (i !== j) out.push([tokens.concat(String(i)), i, j, "moved"]); diffValues(v,
          b[j], tokens.concat(String(j)), out); } });
        b.forEach((v, j) => { if (!ai.has(idOf(v))) out.push([tokens.concat(String(j)),
          undefined, v, "inserted"]); });
        return;
      }
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) diffValues(i < a.length ? a[i] : undefined, i < b.length ?
        b[i] : undefined, tokens.concat(String(i)), out);
      return;
    }
    const keys = new Set(Object.keys(a).concat(Object.keys(b)));
    for (const k of keys) diffValues(k in a ? a[k] : undefined, k in b ? b[k] : undefined,
      tokens.concat(k), out);
    return;
  }
  if (!ao && !bo && a === b) return;
  out.push([tokens, a, b, a === undefined ? "inserted" : b === undefined ? "removed" :
    "changed"]);
}
function renderDiff() {
  const left = compareWith !== null ? compareWith : Math.max(-1, selected - 1);
  $("diff-a").value = stepName(left); $("diff-b").value = stepName(selected);
  diffBetween(left, selected);
}
function diffBetween(pa, pb) {
  const out = $("diff-out"); out.textContent = "";
  const changes = []; diffValues(stateAfter(pa), stateAfter(pb), [], changes);
  out.append(el("p", "note", changes.length + " difference(s) between the state after step " +
    stepName(pa) + " and after step " + stepName(pb) +
    " (arrays of identified objects match by id)."));
  const table = el("table", "diff"), head = el("tr");
  head.append(el("th", "", "path"), el("th", "", "step " + stepName(pa)), el("th", "", "step " +
    stepName(pb)));
  table.append(head);
  for (const [t, a, b, kind, label, valueType] of changes) {
    const row = el("tr");
    const pc = el("td", "p", (label || pointer(t)) + (kind === "changed" ? "" : " (" + kind +
      ")"));
    pc.style.cursor = "pointer"; pc.addEventListener("click", () => pick(t));
    const type = valueType || typeAt(t);
    const text = (v) => kind === "moved" ? "at index " + v : shortSwift(v, type, 300);
    row.append(pc, el("td", "a", text(a)), el("td", "b", text(b)));
    table.append(row);
  }
  out.append(table);
}
$("diff-go").addEventListener("click", () => {
  const a = resolveStep($("diff-a").value), b = resolveStep($("diff-b").value);
  if (a === null || b === null) { $("diff-out").textContent = "No such step."; return; }
  compareWith = a; diffBetween(a, b);
});

// ---- Search through history ----------------------------------------------------------
// One pass over the patches: counts the matching values each step removes and adds (from
// the state before it and the operation's value), so a 10,000-step trace is a few ms.
function matches(v, q, tokens, out) {
  if (v !== null && typeof v === "object") {
    if (Array.isArray(v)) v.forEach((x, i) => matches(x, q, tokens.concat(String(i)), out));
    else for (const k of Object.keys(v)) matches(v[k], q, tokens.concat(k), out);
    return;
  }
  if (scalarText(v).toLowerCase().indexOf(q) >= 0) out.push([tokens, v]);
}
function searchHistory(query) {
  const q = query.toLowerCase(), hits = [];
  let state = data.initialState, found = [];
  matches(state, q, [], found);
  let count = found.length;
  if (count) hits.push({ p: -1, kind: "appears", where: found });
  for (let p = 0; p < N; p++) {
    const removed = [], added = [];
    let s = state;
    for (const op of steps[p].patch) {
      const path = parsePointer(op.path);
      if (op.op === "remove" || op.op === "replace") matches(get(s, path), q, path, removed);
      if (op.op === "add") { const old = get(s, path); if (old !== undefined &&
        !Array.isArray(get(s, path.slice(0, -1)))) matches(old, q, path, removed); }
      if (op.op === "add" || op.op === "replace") matches(op.value, q, path, added);
      if (op.op === "copy") matches(get(s, parsePointer(op.from)), q, path, added);
      s = applyPatch(s, [op]);
    }
    state = s;
    if (!removed.length && !added.length) continue;
    const before = count; count += added.length - removed.length;
    const kind = before === 0 && count > 0 ? "appears" : before > 0 && count === 0 ?
      "disappears" : "changes";
    hits.push({ p: p, kind: kind, where: added.length ? added : removed, removed: removed });
  }
  return hits;
}
function renderSearch(query) {
  const out = $("search-out"); out.textContent = "";
  if (!query) return;
  const t = performance.now(), hits = searchHistory(query), ms = performance.now() - t;
  out.append(el("p", "note", hits.length + " step(s) where a value containing " +
    JSON.stringify(query) + " appears, changes or disappears (" + ms.toFixed(1) + " ms)."));
  const ul = el("ul", "hits");
  for (const h of hits.slice(0, 1000)) {
    const li = el("li");
    li.append(el("span", "kind k-" + h.kind, h.kind), el("span", "idx", h.p < 0 ? "initial" :
      String(steps[h.p].index)));
    const w = h.where[0];
    const was = h.kind === "changes" && h.removed.length && h.where !== h.removed ?
      short(h.removed[0][1], 30) + " → " : "";
    li.append(el("code", "", pointer(w[0]) + " = " + was + short(w[1], 60) +
      (h.where.length > 1 ? " (+" + (h.where.length - 1) + ")" : "")));
    if (h.p >= 0) li.title = steps[h.p].label;
    li.addEventListener("click", () => { select(h.p); pick(w[0], true); });
    ul.append(li);
  }
  out.append(ul);
  window.__lastSearch = { query: query, hits: hits.length, ms: ms };
}
$("search-form").addEventListener("submit", (e) => { e.preventDefault();
  renderSearch($("search").value); });

// ---- Path history: every step that changed a node, following ids ---------------------
// A path of the selected state as segments; an element of an array of identified objects
// becomes {id}, so the history follows the element wherever it moves.
function identityPath(state, tokens) {
  const segs = []; let v = state;
  for (const t of tokens) {
    if (Array.isArray(v) && identified(v)) segs.push({ id: idOf(v[+t]), at: +t });
    else segs.push(t);
    v = get(v, [t]);
  }
  return segs;
}
function identityText(segs) {
  return segs.map((s) => typeof s === "object" ? "[id=" + JSON.parse(s.id) + "]" : "/" +
    s.replace(/~/g, "~0").replace(/\//g, "~1")).join("") || "/";
}
function resolveIdentity(state, segs) { // → tokens, or null when absent
  const tokens = []; let v = state;
  for (const s of segs) {
    if (typeof s === "object") {
      if (!Array.isArray(v)) return null;
      let i = s.at < v.length && idOf(v[s.at]) === s.id ? s.at :
        v.findIndex((x) => idOf(x) === s.id);
      if (i < 0) return null;
      s.at = i; tokens.push(String(i)); v = v[i];
    } else { v = get(v, [s]); if (v === undefined) return null; tokens.push(s); }
  }
  return tokens;
}
function pathHistory(segs) {
  const hits = []; let state = data.initialState;
  let at = resolveIdentity(state, segs);
  for (let p = 0; p < N; p++) {
    const next = applyPatch(state, steps[p].patch);
    const ch = changedPaths(steps[p]);
    const before = at, beforeText = before && pointer(before);
    // Cheap test first: a step whose operations touch neither the node nor an array above it
    // leaves it where and what it was.
    const touches = ch.some((c) => beforeText === null || related(c, beforeText) ||
      (function () {
      const t = parsePointer(c); return segs.some((s, k) => typeof s === "object" &&
        pointer((before || []).slice(0, k)) === pointer(t.slice(0, k)) && t.length === k + 1);
    })());
    if (touches) {
      const after = resolveIdentity(next, segs);
      const vb = before ? get(state, before) : undefined, va = after ? get(next, after) :
        undefined;
      let kind = null;
      if (before && !after) kind = "removed";
      else if (!before && after) kind = "inserted";
      else if (before && after) {
        if (vb !== va && JSON.stringify(vb) !== JSON.stringify(va)) kind = "changed";
        // A new position is a move only when the step moved the element itself; an insert
        // or removal before it only shifts its index.
        else if (pointer(before) !== pointer(after) &&
          steps[p].patch.some((op) => op.op === "move" && related(op.from,
          pointer(before)))) kind = "moved";
      }
      if (kind) hits.push({ p: p, kind: kind, before: vb, after: va, from: before, to: after });
      at = after;
    }
    state = next;
  }
  return hits;
}
function pick(tokens, quiet) {
  picked = tokens;
  let shown = true;
  let v = stateAfter(selected);
  for (let k = 0; k < tokens.length; k++) {
    const a = pointer(tokens.slice(0, k));
    // Long arrays show in groups of GROUP: open the group that holds the element too.
    const g = Array.isArray(v) && v.length > GROUP ? a + "#" +
      (Math.floor(+tokens[k] / GROUP) * GROUP) : null;
    for (const id of g ? [a, g] : [a]) if (!isOpen(id)) { expanded.add(id);
      collapsed.delete(id); shown = false; }
    v = v === undefined ? undefined : get(v, [tokens[k]]);
  }
  if (!shown) { window.__scrollChanges = false; renderTree(); window.__scrollChanges = true; }
  for (const l of document.querySelectorAll(".line.picked")) l.classList.remove("picked");
  const line = document.querySelector('.line[data-path="' + CSS.escape(pointer(tokens)) + '"]');
  if (line) { line.classList.add("picked"); line.scrollIntoView({ block: "nearest" }); }
  if (!quiet) { showPane("history"); }
  renderHistory();
}
let historyHits = [];
function renderHistory() {
  const out = $("history-out"); out.textContent = "";
  if (!picked) return;
  const t = performance.now();
  const segs = identityPath(stateAfter(selected), picked);
  historyHits = pathHistory(segs);
  const ms = performance.now() - t;
  const title = el("p"); title.append(el("code", "", identityText(segs))); out.append(title);
  out.append(el("p", "note", historyHits.length + " step(s) changed it (" + ms.toFixed(1) +
    " ms). Now at " + (pointer(picked) || "/") + "."));
  const ul = el("ul", "hits");
  for (const h of historyHits) {
    const li = el("li");
    li.append(el("span", "kind k-" + h.kind, h.kind), el("span", "idx",
      String(steps[h.p].index)));
    let text = h.kind === "moved" ? pointer(h.from) + " → " + pointer(h.to)
      : h.kind === "inserted" ? "at " + pointer(h.to) + " = " + short(h.after, 60)
      : h.kind === "removed" ? "from " + pointer(h.from) : changeText(h.before, h.after);
    li.append(el("code", "", text)); li.title = steps[h.p].label;
    if (h.p === selected) li.style.background = "var(--sel)";
    li.addEventListener("click", () => select(h.p));
    ul.append(li);
  }
  out.append(ul);
  window.__lastHistory = { path: identityText(segs), hits: historyHits.length, ms: ms };
}
// A change of a container, told by what changed inside it: "/title: "B" → "Bu" (+1)".
function changeText(before, after) {
  const isObj = (v) => v !== null && typeof v === "object";
  if (!isObj(before) || !isObj(after)) return short(before, 40) + " → " + short(after, 40);
  const inside = []; diffValues(before, after, [], inside);
  if (!inside.length) return "(same value)";
  const [t, a, b] = inside[0];
  return pointer(t) + ": " + short(a, 30) + " → " + short(b, 30) +
    (inside.length > 1 ? " (+" + (inside.length - 1) + ")" : "");
}
function nextChange(dir) {
  if (!historyHits.length) return;
  const list = dir > 0 ? historyHits.filter((h) => h.p > selected) :
    historyHits.filter((h) => h.p < selected).reverse();
  if (list.length) select(list[0].p);
}

// ---- Tabs ----------------------------------------------------------------------------
function showPane(name) {
  for (const b of $("tabs").children) b.classList.toggle("on", b.dataset.pane === name);
  for (const p of document.querySelectorAll(".pane")) p.classList.toggle("on",
    p.id === "pane-" + name);
  if (name === "diff") renderDiff();
}
$("tabs").addEventListener("click", (e) => {
  if (e.target.dataset.pane) showPane(e.target.dataset.pane); });

// ---- Timeline ------------------------------------------------------------------------
const canvas = $("timeline"), ctx = canvas.getContext("2d");
let view = { from: -0.5, to: Math.min(N, 300) - 0.5 };
// The view stays on the trace: centring on step 0 once put the first step mid-canvas.
function clampView() {
  const w = view.to - view.from;
  view.from = w >= N ? -0.5 : Math.max(-0.5, Math.min(N - 0.5 - w, view.from));
  view.to = view.from + w;
}
function fit(center) {
  const w = view.to - view.from;
  if (center < view.from + w * 0.05 || center > view.to - w * 0.05) {
    view.from = center - w / 2; view.to = center + w / 2; }
  clampView();
}
const LANE_SEND = 22, LANE_EFFECT = 44, FX_TOP = 62, FX_ROW = 14;
function drawTimeline(follow) {
  const dpr = window.devicePixelRatio || 1, W = canvas.clientWidth, H = canvas.clientHeight;
  if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr); }
  if (follow && selected >= 0) fit(selected);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0); ctx.clearRect(0, 0, W, H);
  const L = 70, R = 10, scale = (W - L - R) / (view.to - view.from);
  const x = (p) => L + (p - view.from) * scale;
  ctx.font = "11px system-ui, sans-serif"; ctx.fillStyle = "#6e6e73";
  ctx.fillText("sent", 8, LANE_SEND + 4); ctx.fillText("by effect", 8, LANE_EFFECT + 4);
    ctx.fillText("effects", 8, FX_TOP + 10);
  const lo = Math.max(0, Math.floor(view.from)), hi = Math.min(N - 1, Math.ceil(view.to));
  // axis: step indices and times
  const stepTick = Math.pow(10, Math.max(0, Math.ceil(Math.log10((view.to - view.from) / 8))));
  ctx.strokeStyle = "#eee"; ctx.fillStyle = "#999";
  for (let p = Math.ceil(lo / stepTick) * stepTick; p <= hi; p += stepTick) {
    ctx.beginPath(); ctx.moveTo(x(p), 8); ctx.lineTo(x(p), H - 14); ctx.stroke();
    const tick = steps[p].index + " · " + (steps[p].time * 1000).toFixed(1) + "ms";
    if (x(p) + 2 + ctx.measureText(tick).width <= W) ctx.fillText(tick, x(p) + 2, H - 3);
  }
  ctx.save(); ctx.beginPath(); ctx.rect(L - 4, 0, W - L + 4, H); ctx.clip();
  // effects as spans; in a row, a span inside what is drawn already is skipped (10,000
  // running effects would otherwise cost 10,000 rectangles a frame)
  const drawnTo = new Array(ROWS).fill(-Infinity);
  for (const e of effects) {
    if (e.p1 < view.from || e.p0 > view.to) continue;
    const y = FX_TOP + e.row * FX_ROW, x0 = x(e.p0), x1 = Math.max(x(e.p1), x0 + 2);
    if (x1 <= drawnTo[e.row] && e.step !== (steps[selected] || {}).index) continue;
    drawnTo[e.row] = Math.max(drawnTo[e.row], x1);
    ctx.fillStyle = e.outcome === "finished" ? "#2e9d5b" : e.outcome === "cancelled" ?
      "#8e8e93" : "#c9a100";
    ctx.globalAlpha = e.step === (steps[selected] || {}).index ? 1 : 0.55;
    ctx.fillRect(x0, y, x1 - x0, 9);
    if (e.outcome === "cancelled") { ctx.fillStyle = "#d62c2c"; ctx.fillRect(x1 - 2, y, 2, 9); }
    ctx.globalAlpha = 1;
  }
  // causality: from the cause to the step its effect sent
  const many = hi - lo > 1500;
  ctx.lineWidth = 1;
  for (let p = lo; p <= hi; p++) {
    const s = steps[p]; if (s.cause == null) continue;
    const c = positionOfIndex.get(s.cause); if (c === undefined) continue;
    const mine = p === selected || c === selected;
    if (many && !mine) continue;
    const yc = steps[c].origin === "send" ? LANE_SEND : LANE_EFFECT;
    ctx.strokeStyle = mine ? "#d9822b" : "rgba(217,130,43,.35)"; ctx.lineWidth = mine ? 2 : 1;
    ctx.beginPath(); ctx.moveTo(x(c), yc); ctx.bezierCurveTo(x(c), yc + 18, x(p),
      LANE_EFFECT - 18, x(p), LANE_EFFECT); ctx.stroke();
  }
  ctx.lineWidth = 1;
  // steps
  const r = Math.max(1.5, Math.min(4, scale / 3));
  for (let p = lo; p <= hi; p++) {
    const s = steps[p], xp = x(p);
    if (s.origin === "send") { ctx.fillStyle = "#2f6fdb"; ctx.beginPath(); ctx.arc(xp,
      LANE_SEND, r, 0, 7); ctx.fill(); }
    else { ctx.fillStyle = "#d9822b"; ctx.beginPath(); ctx.moveTo(xp, LANE_EFFECT - r - 1);
      ctx.lineTo(xp + r + 1, LANE_EFFECT); ctx.lineTo(xp, LANE_EFFECT + r + 1);
      ctx.lineTo(xp - r - 1, LANE_EFFECT); ctx.fill(); }
  }
  if (selected >= 0) { ctx.strokeStyle = "#2f6fdb"; ctx.lineWidth = 2; ctx.beginPath();
    ctx.moveTo(x(selected), 6); ctx.lineTo(x(selected), H - 14); ctx.stroke();
    ctx.lineWidth = 1; }
  if (crashPosition !== null) {
    ctx.strokeStyle = "#d62c2c"; ctx.fillStyle = "#d62c2c"; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.moveTo(x(crashPosition), 4); ctx.lineTo(x(crashPosition), H - 14);
      ctx.stroke();
    ctx.fillText("✖ crash", x(crashPosition) + 4, 12); ctx.lineWidth = 1;
  }
  ctx.restore();
  $("timeline-status").textContent = N ? "steps " + stepName(lo) + "–" + stepName(hi) +
    " · wheel to zoom, drag to pan" : "no steps yet";
}
function positionAt(clientX) {
  const rect = canvas.getBoundingClientRect(), L = 70, R = 10;
  return view.from + (clientX - rect.left - L) / (rect.width - L - R) * (view.to - view.from);
}
canvas.addEventListener("wheel", (e) => {
  e.preventDefault();
  const at = positionAt(e.clientX), k = e.deltaY > 0 ? 1.25 : 0.8;
  const w = Math.max(10, Math.min(N + 10, (view.to - view.from) * k));
  const f = (at - view.from) / (view.to - view.from);
  view.from = at - f * w; view.to = view.from + w; clampView(); drawTimeline(false);
}, { passive: false });
let drag = null;
canvas.addEventListener("mousedown", (e) => { drag = { x: e.clientX, from: view.from,
  to: view.to, moved: false }; });
window.addEventListener("mousemove", (e) => {
  if (!drag) return;
  const dx = e.clientX - drag.x; if (Math.abs(dx) > 3) drag.moved = true;
  const per = (drag.to - drag.from) / (canvas.clientWidth - 80);
  view.from = drag.from - dx * per; view.to = drag.to - dx * per; clampView();
  drawTimeline(false);
});
window.addEventListener("mouseup", (e) => {
  if (drag && !drag.moved && e.target === canvas) select(Math.round(positionAt(e.clientX)));
  drag = null;
});
window.addEventListener("resize", () => { drawTimeline(false); renderList(false); });

// ---- Keyboard, like the terminal stepper ---------------------------------------------
document.addEventListener("keydown", (e) => {
  if (e.target.matches("input, select, textarea")) { if (e.key === "Escape") e.target.blur();
    return; }
  if (e.metaKey || e.ctrlKey || e.altKey) return;
  const moves = { n: 1, j: 1, ArrowRight: 1, ArrowDown: 1, b: -1, k: -1, ArrowLeft: -1,
    ArrowUp: -1, "]": 10, "[": -10 };
  if (e.key in moves) { select(selected + moves[e.key]); e.preventDefault(); return; }
  switch (e.key) {
    case "Home": select(-1); break;
    case "End": select(N - 1); break;
    case "c": nextChange(1); break;
    case "C": nextChange(-1); break;
    case "/": showPane("search"); $("search").focus(); break;
    case "g": { const v = prompt("Go to step (a number, initial or last):");
      const p = v === null ? null : resolveStep(v); if (p !== null) select(p); break; }
    default: return;
  }
  e.preventDefault();
});

// ---- Permalink -----------------------------------------------------------------------
function fromHash() {
  const m = /step=([^&]+)/.exec(location.hash);
  if (!m) return false;
  const p = resolveStep(decodeURIComponent(m[1]));
  if (p !== null) { select(p, { noHash: true }); return true; }
  return false;
}
window.addEventListener("hashchange", fromHash);

// More of the link, read once: #step=41&path=/todos/0/title&search=milk&pane=diff&compare=10
// (the browser test drives the page this way), and &bench=1 to time step switches.
function hashParams() {
  const out = {};
  for (const part of location.hash.slice(1).split("&")) {
    const i = part.indexOf("="); if (i > 0) out[part.slice(0,
      i)] = decodeURIComponent(part.slice(i + 1));
  }
  return out;
}
applyFilters();
if (!fromHash()) select(selected, { noHash: true });
// From navigation start (parsing the page and its data included) to the first step drawn.
const readyMs = performance.now(), scriptMs = readyMs - T0;
const params = hashParams();
if (params.compare !== undefined) { const c = resolveStep(params.compare); if (c !== null) {
  compareWith = c; showPane("diff"); } }
if (params.path !== undefined) pick(parsePointer(params.path));
if (params.search !== undefined) { $("search").value = params.search; showPane("search");
  renderSearch(params.search); }
if (params.pane) showPane(params.pane);
// The list's filters: &filter=<label text>&origin=send|effect&changed=<pointer>.
if (params.filter !== undefined || params.origin !== undefined ||
  params.changed !== undefined) {
  $("f-label").value = params.filter || "";
  $("f-origin").value = params.origin || "";
  $("f-path").value = params.changed || "";
  applyFilters();
}
if (params.bench) {
  // Step switches as a person makes them: the next step, and jumps to random steps.
  const t = [], r = [];
  for (let k = 0; k < 100 && N > 1; k++) { const a = performance.now(); select((selected +
    1) % N, { noHash: true }); t.push(performance.now() - a); }
  let seed = 7;
  for (let k = 0; k < 50 && N > 1; k++) { seed = (seed * 1103515245 + 12345) % 2147483648;
    const a = performance.now(); select(seed % N, { noHash: true });
    r.push(performance.now() - a); }
  const med = (a) => { a = a.slice().sort((x, y) => x - y); return a.length ? a[a.length >> 1] :
    0; };
  const s1 = performance.now(); const hits = searchHistory(params.bench === "1" ? "true" :
    params.bench); const sm = performance.now() - s1;
  // The history of the first path the selected step changed, followed by id.
  const h1 = performance.now(), changedHere = N ? changedPaths(steps[selected]) : [];
  const historyHits = changedHere.length ? pathHistory(identityPath(stateAfter(selected),
    parsePointer(changedHere[0]))).length : 0;
  const hm = performance.now() - h1;
  document.body.dataset.bench = JSON.stringify({ nextMedian: med(t),
    nextMax: Math.max.apply(null, t.concat([0])),
    jumpMedian: med(r), jumpMax: Math.max.apply(null, r.concat([0])), searchMs: sm,
      searchHits: hits.length, historyMs: hm, historyHits: historyHits,
      parts: window.__parts });
}
// ---- Live: what a served page's stream (live.js) appends ------------------------------
// batch: { steps, effects: [{effect, step, time, event}], crash?, closed? }. A selection on
// the last step, and a timeline showing the end, follow the new steps; any other stays put.
const effectById = new Map(effects.map((e) => [e.id, e]));
function grow(batch) {
  const oldN = N, following = selected === N - 1, atEnd = view.to >= N - 1.5;
  for (const s of batch.steps) {
    // Types first seen in a live step: new types only (a member added later is not merged).
    for (const t in s.types || {}) if (!(t in TYPES)) TYPES[t] = s.types[t];
    if (N % EVERY === 0) checkpoints.push(stateAfter(N - 1));
    steps.push(s); times.push(s.time); positionOfIndex.set(s.index, N);
    if (s.cause != null) { if (!childrenOf.has(s.cause)) childrenOf.set(s.cause, []);
      childrenOf.get(s.cause).push(N); }
    if (passes(s)) visible.push(N);
    N++;
    for (const id of s.effects || []) addEffect({ id: id, step: s.index, start: s.time,
      end: s.time, outcome: "running" }, N - 1);
  }
  for (const ev of batch.effects) {
    if (ev.event === "started") { addEffect({ id: ev.effect, step: ev.step, start: ev.time,
      end: ev.time, outcome: "running" }, positionOfIndex.get(ev.step)); continue; }
    const e = effectById.get(ev.effect); if (!e) continue;
    e.end = ev.time; e.outcome = ev.event; e.p1 = Math.max(e.p0, positionAtTime(ev.time));
  }
  for (const e of effects) if (e.outcome === "running") e.p1 = Math.max(e.p0, N - 1);
  if (batch.closed) tr.closed = true;
  if (batch.crash) { crash = batch.crash; crashPosition = placeCrash(); showCrash(); }
  renderMeta(); countRows();
  const w = Math.max(view.to - view.from, Math.min(N, 300));
  if (atEnd) { view.to = N - 0.5; view.from = view.to - w; clampView(); }
  if (following && N > oldN) select(N - 1, { noHash: true });
  else { renderList(false); drawTimeline(false); }
}
function addEffect(e, p) {
  e.p0 = p === undefined ? positionAtTime(e.start) : p; e.p1 = e.p0; place(e);
  effects.push(e); effectById.set(e.id, e);
  if (!effectsByStep.has(e.step)) effectsByStep.set(e.step, []);
  effectsByStep.get(e.step).push(e);
}
window.__viewer = { ready: true, grow: grow, loadMs: readyMs, scriptMs: scriptMs, steps: N,
  select: select, search: renderSearch, pick: pick, showPane: showPane, stateAfter: stateAfter,
  pathHistory: (tokens) => pathHistory(identityPath(stateAfter(selected),
    tokens)).map((h) => [steps[h.p].index, h.kind]),
  searchHistory: (q) => searchHistory(q).map((h) => [h.p < 0 ? "initial" : steps[h.p].index,
    h.kind]) };
document.body.dataset.ready = "1";
// From navigation start (parsing the page and its data included) to a drawn page.
document.body.dataset.loadMs = readyMs.toFixed(1);
document.body.dataset.scriptMs = scriptMs.toFixed(1);
})();
