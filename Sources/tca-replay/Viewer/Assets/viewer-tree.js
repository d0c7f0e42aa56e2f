// The state tree of the selected step, and the diff of two steps side by side.
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
  hiddenChanges(pa, pb, changes);
  out.append(el("p", "note", counted(changes.length, "difference") +
    " between the state after step " +
    stepName(pa) + " and after step " + stepName(pb) +
    " (arrays of identified objects match by id)."));
  const table = el("table", "diff"), head = el("tr");
  head.append(el("th", "", "path"), el("th", "", "step " + stepName(pa)), el("th", "", "step " +
    stepName(pb)));
  // One step's diff on a page served with a replay host: which reducer wrote each path.
  const blamed = typeof window.changedBy === "function" && pb >= 0 && pa === pb - 1 ? [] : null;
  if (blamed) head.append(el("th", "", "changed by"));
  table.append(head);
  for (const [t, a, b, kind, label, valueType] of changes) {
    const row = el("tr");
    const pc = el("td", "p", (label || pointer(t)) + (kind === "changed" ? "" : " (" + kind +
      ")"));
    pc.style.cursor = "pointer"; pc.addEventListener("click", () => pick(t));
    const type = valueType || typeAt(t);
    const text = (v) => kind === "moved" ? "at index " + v :
      kind === "changed, value redacted" ? v : shortSwift(v, type, 300);
    row.append(pc, el("td", "a", text(a)), el("td", "b", text(b)));
    if (blamed) { const by = el("td", "by", "…"); row.append(by); blamed.push([pointer(t), by]); }
    table.append(row);
  }
  out.append(table);
  if (blamed && blamed.length) window.changedBy(steps[pb].index, blamed);
}
// A hidden value changed in place stays "<redacted>" in both states: the recorder says so with
// a test and a replace of the placeholder by itself (TraceFormat.md, Redaction).
function hiddenChanges(pa, pb, changes) {
  const hidden = "<redacted>", seen = new Set(changes.map((c) => pointer(c[0])));
  for (let q = Math.max(pa + 1, 0); q <= pb; q++) {
    const ops = steps[q].patch;
    for (let i = 0; i + 1 < ops.length; i++) {
      const [t, r] = [ops[i], ops[i + 1]];
      if (t.op !== "test" || r.op !== "replace" || t.path !== r.path || t.value !== hidden ||
        r.value !== hidden) continue;
      // A row at the path or around it (a value added whole) already says it changed.
      if ([...seen].some((s) => r.path === s || r.path.startsWith(s + "/"))) continue;
      seen.add(r.path);
      changes.push([parsePointer(r.path), hidden, hidden, "changed, value redacted"]);
    }
  }
}
$("diff-go").addEventListener("click", () => {
  const a = resolveStep($("diff-a").value), b = resolveStep($("diff-b").value);
  if (a === null || b === null) { $("diff-out").textContent = "No such step."; return; }
  compareWith = a; diffBetween(a, b);
});
