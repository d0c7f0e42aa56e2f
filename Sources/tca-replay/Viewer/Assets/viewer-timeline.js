// The timeline: steps, causes, effects and the crash on a canvas; zoom, pan, click to select.
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
