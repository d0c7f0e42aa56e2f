"use strict";
// The viewer's data: the steps in #trace-data, states rebuilt from patches, effects in rows.
// The viewer-*.js files are one function body, in the order Scripts/embed-viewer-assets lists
// them: ViewerPage calls it as the page loads, the served page as startViewer once its stream
// has begun. Trace text reaches the page only through textContent, never as markup.
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
// A count and its noun, agreeing, as the tool's `counted` writes them: "1 change", "2 changes".
function counted(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }
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
