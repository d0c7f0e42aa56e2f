// The keyboard, the permalink, and the first draw from the address (#step=…&path=…&bench=1).
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
