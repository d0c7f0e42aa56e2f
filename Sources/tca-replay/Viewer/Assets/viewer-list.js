// The selection, the header, the action list and its filters, the step's heading and action.
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
  // A change per operation other than test: a move is one change at two paths.
  const changes = s.patch.filter((op) => op.op !== "test").length;
  why.append(" · t=" + s.time.toFixed(6) + "s · " + counted(changes, "change"));
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
