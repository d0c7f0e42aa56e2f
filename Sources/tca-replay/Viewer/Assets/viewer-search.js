// Searches through history (a value; a node's path, following ids) and the tabs of panes.
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
  out.append(el("p", "note", counted(hits.length, "step") + " where a value containing " +
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
  out.append(el("p", "note", counted(historyHits.length, "step") + " changed it (" +
    ms.toFixed(1) +
    " ms). Now at " + (pointer(picked) || "/") + "."));
  const ul = el("ul", "hits");
  for (const h of historyHits) {
    const li = el("li");
    li.append(el("span", "kind k-" + h.kind, h.kind), el("span", "idx",
      String(steps[h.p].index)));
    let text = h.kind === "moved" ? pointer(h.from) + " → " + pointer(h.to)
      : h.kind === "inserted" ? "at " + pointer(h.to) + " = " +
        shortSwift(h.after, typeAt(h.to), 60)
      : h.kind === "removed" ? "from " + pointer(h.from)
      : changeText(h.before, h.after, h.to || h.from);
    li.append(el("code", "", text)); li.title = steps[h.p].label;
    if (h.p === selected) li.style.background = "var(--sel)";
    li.addEventListener("click", () => select(h.p));
    ul.append(li);
  }
  out.append(ul);
  window.__lastHistory = { path: identityText(segs), hits: historyHits.length, ms: ms };
}
// A change of a container, told by what changed inside it: "/title: "B" → "Bu" (+1)"; values
// in Swift form, as the tree and the diff show them, read by the types at `tokens` and below.
function changeText(before, after, tokens) {
  const isObj = (v) => v !== null && typeof v === "object";
  if (!isObj(before) || !isObj(after)) {
    const type = typeAt(tokens);
    return shortSwift(before, type, 40) + " → " + shortSwift(after, type, 40);
  }
  // Diffed at its place, so that what is inside is read by its own types.
  const inside = []; diffValues(before, after, tokens, inside);
  if (!inside.length) return "(same value)";
  const [t, a, b, , label, valueType] = inside[0];
  const type = valueType || typeAt(t);
  // A value shown whole (a Date, a Duration) changes at the node itself: no path to name.
  const where = label || pointer(t.slice(tokens.length));
  return (where ? where + ": " : "") + shortSwift(a, type, 30) + " → " +
    shortSwift(b, type, 30) + (inside.length > 1 ? " (+" + (inside.length - 1) + ")" : "");
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
