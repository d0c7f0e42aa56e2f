// grow, which live.js calls with what the stream appends; then window.__viewer and "ready".
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
