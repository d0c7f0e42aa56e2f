"use strict";
// Values in Swift form, read by the trace's types, as `tca-replay state` shows them: a struct
// `Todo.State(id: UUID(0), …)`, an enum `.checkingOut(.card(last4: "4242"))`, a Duration
// `.seconds(6.93)`, a Date in ISO 8601, a dictionary keyed by other than strings `[13: 2]` and
// its entries by key (Documentation/CommandLine.md). viewer-data.js makes one from the page's data.
function makeSwiftForm(types, stateType) {
  const TYPES = types;
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const memberType = (t) => (t || "").replace(/\?$/, "") || null;
  function unwrapOptional(t) {
    while (t && t.startsWith("Swift.Optional<") && t.endsWith(">")) t = t.slice(15, -1);
    return t;
  }
  function genericArgument(t) {
    const i = t.indexOf("<"); return i < 0 ? null : t.slice(i + 1, -1); }
  function shortName(t) { const b = t.split("<")[0].split("."); return b[b.length - 1]; }
  function displayName(t) { const i = t.indexOf("<"), base = i < 0 ? t : t.slice(0, i);
    const c = base.split(".");
    return c.length > 1 ? c.slice(1).join(".") + t.slice(base.length) : t; }
  function dictionaryArguments(t) {
    const g = shortName(t) === "Dictionary" ? genericArgument(t) : null; if (!g) return null;
    let depth = 0;
    for (let i = 0; i < g.length; i++) { const c = g[i];
      if (c === "<") depth++; else if (c === ">") depth--;
      else if (c === "," && depth === 0) return [g.slice(0, i).trim(), g.slice(i + 1).trim()]; }
    return null;
  }
  // A dictionary keyed by other than strings is shown [key: value] and its entries by key.
  function keyedByName(t) {
    const d = dictionaryArguments(t); return !d || shortName(d[0]) === "String"; }
  function shownWhole(t) { t = unwrapOptional(t); const s = shortName(t);
    return ["Duration", "Set", "Data", "Date", "URL"].includes(s) ||
      (s === "Dictionary" && !keyedByName(t)); }
  function entries(v, keyType) {
    if (Array.isArray(v) && v.length % 2 === 0) {
      const e = [];
      for (let i = 0; i < v.length; i += 2) e.push([v[i], v[i + 1], i + 1]);
      return e; }
    if (isObject(v)) return Object.keys(v).map((k) => [/^Swift\.U?Int/.test(keyType) &&
      /^-?\d+$/.test(k) ? Number(k) : k, v[k], k]);
    return null;
  }
  // The walk of a path through the types: {type} or an enum case's {payload}, null if unknown.
  function typeStep(w, token) {
    if (!w) return null;
    if (w.payload) return w.payload[token] ? { type: memberType(w.payload[token]) } : null;
    const t = unwrapOptional(w.type), d = dictionaryArguments(t);
    if (d) return keyedByName(t) || +token % 2 === 1 ? { type: d[1] } : null;
    if (["Set", "Array"].includes(shortName(t))) return { type: genericArgument(t) };
    const desc = TYPES[t]; if (!desc) return null;
    if (desc.struct) return desc.struct[token] ? { type: memberType(desc.struct[token]) } : null;
    if (desc.enum) return desc.enum[token] ? { payload: desc.enum[token] } : null;
    if (desc.array) return { type: desc.array };
    if (desc.dictionary) return { type: desc.dictionary };
    return null;
  }
  function typeAt(tokens) { let w = { type: stateType };
    for (const t of tokens) w = typeStep(w, t); return w && w.type ? w.type : null; }
  function uuidText(s) { const p = "00000000-0000-0000-0000-";
    return s.startsWith(p) && /^[0-9A-Fa-f]{12}$/.test(s.slice(p.length)) ?
      "UUID(" + parseInt(s.slice(p.length), 16) + ")" : "UUID(" + s.slice(0, 8) + "…)"; }
  function durationText(v) {
    if (!Array.isArray(v) || v.length !== 2) return null;
    const seconds = v[0] * 18.446744073709551616 + v[1] / 1e18; // the two words of attoseconds
    if (seconds === 0) return ".zero";
    for (const [unit, size] of [["seconds", 1], ["milliseconds", 1e-3], ["microseconds", 1e-6],
      ["nanoseconds", 1e-9]]) {
      if (Math.abs(seconds) >= size || unit === "nanoseconds") {
        return "." + unit + "(" + Number((seconds / size).toPrecision(3)) + ")"; } }
  }
  function dateText(s) { // seconds since 2001, as ISO 8601
    return new Date((s + 978307200) * 1000).toISOString().replace(".000Z", "Z"); }
  function untyped(v) {
    if (v === null) return "nil";
    if (Array.isArray(v)) return "[" + v.map(untyped).join(", ") + "]";
    if (isObject(v)) { const k = Object.keys(v); return k.length ? "[" + k.map((x) =>
      JSON.stringify(x) + ": " + untyped(v[x])).join(", ") + "]" : "[:]"; }
    return typeof v === "string" ? JSON.stringify(v) : String(v);
  }
  function swift(v, type) {
    if (v === undefined) return "(absent)";
    if (v === null) return "nil";
    const t = type && unwrapOptional(type); if (!t) return untyped(v);
    const s = shortName(t), desc = TYPES[t];
    if (s === "UUID" && typeof v === "string") return uuidText(v);
    if (s === "Date" && typeof v === "number") return dateText(v);
    if (s === "Duration") { const d = durationText(v); if (d) return d; }
    const d = dictionaryArguments(t), e = d && entries(v, d[0]);
    if (e) return e.length ? "[" + e.map(([k, x]) => swift(k, d[0]) + ": " + swift(x, d[1]))
      .join(", ") + "]" : "[:]";
    if (["Set", "Array"].includes(s) && Array.isArray(v)) { const inner = v.map((x) =>
      swift(x, genericArgument(t))).join(", ");
      return s === "Set" ? "Set([" + inner + "])" : "[" + inner + "]"; }
    if (desc && desc.struct && isObject(v)) return displayName(t) + "(" +
      Object.keys(desc.struct).filter((m) => m in v || desc.struct[m].endsWith("?")).map((m) =>
      m + ": " + swift(v[m] === undefined ? null : v[m], memberType(desc.struct[m]))).join(", ") +
      ")";
    if (desc && desc.enum && isObject(v) && Object.keys(v).length === 1) {
      const c = Object.keys(v)[0], payload = v[c] || {}, known = desc.enum[c] || {};
      const labels = Object.keys(payload);
      return "." + c + (labels.length ? "(" + labels.map((l) => (/^_\d+$/.test(l) ? "" : l +
        ": ") + swift(payload[l], memberType(known[l]))).join(", ") + ")" : ""); }
    if (desc && desc.rawEnum && desc.rawEnum[JSON.stringify(v)]) {
      return "." + desc.rawEnum[JSON.stringify(v)]; }
    if (desc && desc.array && Array.isArray(v)) {
      return "[" + v.map((x) => swift(x, desc.array)).join(", ") + "]"; }
    if (desc && desc.dictionary && isObject(v)) { const k = Object.keys(v); return k.length ?
      "[" + k.map((x) => JSON.stringify(x) + ": " + swift(v[x], desc.dictionary)).join(", ") +
      "]" : "[:]"; }
    return untyped(v);
  }
  function shortSwift(v, type, width) {
    width = width || 80; const t = swift(v, type);
    return t.length > width ? t.slice(0, width - 1) + "…" : t;
  }
  return { swift, shortSwift, typeAt, typeStep, shownWhole, dictionaryArguments, entries,
    unwrapOptional, displayName, TYPES };
}
