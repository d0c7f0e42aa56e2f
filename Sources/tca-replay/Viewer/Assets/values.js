"use strict";
// Values in Swift form, read by the trace's types, as `tca-replay state` shows them: a struct
// `Todo.State(id: UUID(0), …)`, an enum `.checkingOut(.card(last4: "4242"))`, a Duration
// `.seconds(6.93)`, a Date in ISO 8601, a dictionary keyed by other than strings `[13: 2]` and
// its entries by key (Documentation/CommandLine.md). viewer-data.js makes one from the page's data.
function makeSwiftForm(types, stateType) {
  const TYPES = types;
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const memberType = (t) => (t || "").replace(/\?$/, "") || null;
  const integerNames = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16",
    "UInt32", "UInt64"];
  function genericArgument(t) {
    const i = t.indexOf("<"); return i < 0 || !t.endsWith(">") ? null : t.slice(i + 1, -1); }
  // Architecture.<name><…> itself, not a type nested in it (StackState<E>, not its .Entry).
  function isArchitecture(t, name) {
    if (!t || !t.startsWith("Architecture." + name + "<")) return false;
    let depth = 0;
    for (let i = 0; i < t.length; i++) { if (t[i] === "<") depth++;
      else if (t[i] === ">" && --depth === 0) return i === t.length - 1; }
    return false;
  }
  // Optionals, and the wrappers that encode as what they wrap, shown as the wrapped type.
  function unwrapOptional(t) {
    for (;;) {
      while (t && t.startsWith("Swift.Optional<") && t.endsWith(">")) t = t.slice(15, -1);
      if (isArchitecture(t, "BindingState") || isArchitecture(t, "PresentationState")) {
        t = genericArgument(t); } else return t; }
  }
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
    return ["Duration", "Set", "Data", "Date", "URL", "IndexSet"].includes(s) ||
      (s === "Dictionary" && !keyedByName(t)); }
  function entries(v, keyType) {
    if (Array.isArray(v) && v.length % 2 === 0) {
      const e = [];
      for (let i = 0; i < v.length; i += 2) e.push([v[i], v[i + 1], i + 1]);
      return e; }
    // Integer keys by value, as SwiftValue lists them: an object lists "-3" after "7".
    if (isObject(v) && /^Swift\.U?Int/.test(keyType)) {
      const number = (k) => /^-?\d+$/.test(k) ? Number(k) : Infinity;
      return Object.keys(v).map((k, i) => [number(k), i, k]).sort((a, b) => a[0] - b[0] ||
        a[1] - b[1]).map(([n, , k]) => [n === Infinity ? k : n, v[k], k]); }
    if (isObject(v)) return Object.keys(v).map((k) => [k, v[k], k]);
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
  // A random UUID is marked with NULs (which no quoted string holds) for swift() to shorten.
  function uuidText(s) { const p = "00000000-0000-0000-0000-";
    if (s.startsWith(p) && /^[0-9A-Fa-f]{12}$/.test(s.slice(p.length))) {
      return "UUID(" + parseInt(s.slice(p.length), 16) + ")"; }
    return s.length === 36 ? "\u0000" + s + "\u0000" : "UUID(" + s + ")"; }
  // A Double as Swift's description writes it: 12.0, 0.30000000000000004, 1e-07, -2.5e+300.
  function doubleText(x) {
    if (Object.is(x, -0)) return "-0.0";
    const m = Math.abs(x);
    if (m !== 0 && (m < 1e-4 || m > 9007199254740992)) {
      const [mantissa, exponent] = x.toExponential().split("e"), e = Number(exponent);
      return mantissa + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0"); }
    return Number.isInteger(x) ? String(x) + ".0" : String(x);
  }
  const specialNumbers = { NaN: ".nan", Infinity: ".infinity", "-Infinity": "-.infinity" };
  function durationText(v) {
    if (!Array.isArray(v) || v.length !== 2) return null;
    const seconds = v[0] * 18.446744073709551616 + v[1] / 1e18; // the two words of attoseconds
    if (seconds === 0) return ".zero";
    for (const [unit, size] of [["seconds", 1], ["milliseconds", 1e-3], ["microseconds", 1e-6],
      ["nanoseconds", 1e-9]]) {
      if (Math.abs(seconds) >= size || unit === "nanoseconds") {
        return "." + unit + "(" + Number((seconds / size).toPrecision(3)) + ")"; } }
  }
  function dateText(s) { // seconds since 2001, as ISO 8601 within the years 1 to 9999
    if (!(s >= -63113904000 && s < 252423993600)) {
      return "Date(timeIntervalSinceReferenceDate: " + s + ")"; }
    return new Date((s + 978307200) * 1000).toISOString().replace(".000Z", "Z"); }
  function indexSetText(v) { // its ranges, as Swift makes one
    const ranges = isObject(v) && Array.isArray(v.indexes) ? v.indexes : null;
    if (!ranges || !ranges.every((r) => isObject(r) && Number.isInteger(r.location) &&
      Number.isInteger(r.length) && r.length >= 0)) return null;
    const count = ranges.reduce((n, r) => n + r.length, 0);
    if (count > 64 && ranges.length === 1) return "IndexSet(integersIn: " + ranges[0].location +
      "..<" + (ranges[0].location + ranges[0].length) + ")";
    if (count > 64) return null;
    const all = [];
    for (const r of ranges) for (let i = 0; i < r.length; i++) all.push(r.location + i);
    return "IndexSet([" + all.join(", ") + "])";
  }
  const text = (v) => typeof v === "string" ? JSON.stringify(v) : untyped(v); // a TextState
  function button(v, actionType) {
    if (!isObject(v) || !("label" in v)) return null;
    const parts = [];
    if (typeof v.role === "string") parts.push("role: ." + v.role);
    if (isObject(v.action)) {
      const sent = "send" in v.action ? build(v.action.send, actionType) : "nil"; parts.push("action: " + ("animation" in v.action ? ".send(" + sent +
      ", animation: " + untyped(v.action.animation) + ")" : sent)); }
    parts.push("label: " + text(v.label));
    return "ButtonState(" + parts.join(", ") + ")";
  }
  function alert(v, name, actionType) {
    if (!isObject(v) || !("title" in v)) return null;
    const parts = [];
    if (typeof v.titleVisibility === "string" && v.titleVisibility !== "automatic") {
      parts.push("titleVisibility: ." + v.titleVisibility); }
    parts.push("title: " + text(v.title));
    if (Array.isArray(v.actions) && v.actions.length) parts.push("actions: [" + v.actions.map((b) =>
      button(b, actionType) || untyped(b)).join(", ") + "]");
    if ("message" in v) parts.push("message: " + text(v.message));
    return name + "(" + parts.join(", ") + ")";
  }
  function stack(v, elementType) {
    if (!Array.isArray(v) || !v.every((e) => isObject(e) && Number.isInteger(e.id) &&
      "element" in e)) return null;
    return v.length ? "[" + v.map((e) => "#" + e.id + ": " + build(e.element, elementType))
      .join(", ") + "]" : "[:]";
  }
  // The @BindingState member a binding key path like `child.$note` writes: its wrapped type.
  function bindingValueType(keyPath, root) {
    let t = root;
    for (const c of keyPath.split(".")) { const d = TYPES[t], name = c.replace(/^\$/, "");
      if (!d || !d.struct || !d.struct[name]) return null; t = memberType(d.struct[name]); }
    return shortName(t) === "BindingState" ? genericArgument(t) : null;
  }
  // Architecture's types whose encoding is not their Swift shape (SwiftValueBuilder+Architecture).
  function architecture(v, t) {
    if (!t.startsWith("Architecture.")) return null;
    if (t.endsWith(">.Entry") && isArchitecture(t.slice(0, -6), "StackState")) {
      return stack([v], genericArgument(t.slice(0, -6))); }
    const g = genericArgument(t);
    if (isArchitecture(t, "BindingAction")) {
      const set = isObject(v) && Object.keys(v).length === 1 && isObject(v.set) ? v.set : null;
      if (!set || Object.keys(set).length !== 2 || typeof set.keyPath !== "string" ||
        !/^([A-Za-z_][A-Za-z0-9_]*\.)*\$[A-Za-z_][A-Za-z0-9_]*$/.test(set.keyPath) ||
        !("value" in set)) return null;
      return ".set(\\." + set.keyPath + ", " + build(set.value,
        bindingValueType(set.keyPath, g)) + ")";
    }
    if (isArchitecture(t, "AlertState")) return alert(v, "AlertState", g);
    if (isArchitecture(t, "ConfirmationDialogState")) return alert(v, "ConfirmationDialogState", g);
    if (isArchitecture(t, "ButtonState")) return button(v, g);
    if (isArchitecture(t, "StackState")) return stack(v, g);
    if (isArchitecture(t, "TaskResult") && isObject(v) && Object.keys(v).length === 1) {
      if ("success" in v) return ".success(" + build(v.success, g) + ")";
      if (isObject(v.failure) && typeof v.failure.type === "string") {
        return ".failure(" + v.failure.type + ")"; }
    }
    return null;
  }
  function untyped(v) {
    if (v === null) return "nil";
    if (Array.isArray(v)) return "[" + v.map(untyped).join(", ") + "]";
    if (isObject(v)) { const k = Object.keys(v); return k.length ? "[" + k.map((x) =>
      JSON.stringify(x) + ": " + untyped(v[x])).join(", ") + "]" : "[:]"; }
    return typeof v === "string" ? JSON.stringify(v) : String(v);
  }
  // Every random UUID cut to the fewest leading digits, 8 or more, that no other UUID in the
  // value shares: UUID(3F2504E0…), as SwiftValue's shorteningUUIDs.
  function swift(v, type) {
    const built = build(v, type), marked = /\u0000([^\u0000]*)\u0000/g;
    if (built.indexOf("\u0000") < 0) return built;
    const all = [...new Set(Array.from(built.matchAll(marked), (m) => m[1]))].sort();
    const shown = new Map(all.map((u, i) => {
      const shared = Math.max(0, ...[all[i - 1], all[i + 1]].filter((n) => n !== undefined)
        .map((n) => { let k = 0; while (k < n.length && n[k] === u[k]) k++; return k; }));
      const length = Math.max(8, shared + 1);
      return [u, length >= u.length ? "UUID(" + u + ")" : "UUID(" + u.slice(0, length) + "…)"];
    }));
    return built.replace(marked, (_, u) => shown.get(u));
  }
  function build(v, type) {
    if (v === undefined) return "(absent)";
    if (v === null) return "nil";
    const t = type && unwrapOptional(type); if (!t) return untyped(v);
    const s = shortName(t), desc = TYPES[t];
    if (integerNames.includes(s) || ["Double", "Float", "CGFloat"].includes(s)) {
      if (typeof v === "number") return integerNames.includes(s) ? String(v) : doubleText(v);
      if (specialNumbers[v]) return specialNumbers[v];
    }
    if (s === "UUID" && typeof v === "string") return uuidText(v);
    if (s === "Date" && typeof v === "number") return dateText(v);
    if (s === "Duration") { const d = durationText(v); if (d) return d; }
    if (s === "IndexSet") { const x = indexSetText(v); if (x) return x; }
    const a = architecture(v, t); if (a !== null) return a;
    const d = dictionaryArguments(t), e = d && entries(v, d[0]);
    if (e) return e.length ? "[" + e.map(([k, x]) => build(k, d[0]) + ": " + build(x, d[1]))
      .join(", ") + "]" : "[:]";
    if (["Set", "Array"].includes(s) && Array.isArray(v)) { const inner = v.map((x) =>
      build(x, genericArgument(t))).join(", ");
      return s === "Set" ? "Set([" + inner + "])" : "[" + inner + "]"; }
    if (desc && desc.struct && isObject(v)) return displayName(t) + "(" +
      Object.keys(desc.struct).filter((m) => m in v || desc.struct[m].endsWith("?")).map((m) =>
      m + ": " + build(v[m] === undefined ? null : v[m], memberType(desc.struct[m])))
      .join(", ") + ")";
    if (desc && desc.enum && isObject(v) && Object.keys(v).length === 1) {
      const c = Object.keys(v)[0], payload = v[c] || {}, known = desc.enum[c] || {};
      // A case whose whole payload a rule hid: the placeholder stands for its arguments.
      if (payload === "<redacted>") return "." + c + '("<redacted>")';
      const labels = Object.keys(payload);
      return "." + c + (labels.length ? "(" + labels.map((l) => (/^_\d+$/.test(l) ? "" : l +
        ": ") + build(payload[l], memberType(known[l]))).join(", ") + ")" : ""); }
    if (desc && desc.rawEnum && desc.rawEnum[JSON.stringify(v)]) {
      return "." + desc.rawEnum[JSON.stringify(v)]; }
    if (desc && desc.array && Array.isArray(v)) {
      return "[" + v.map((x) => build(x, desc.array)).join(", ") + "]"; }
    if (desc && desc.dictionary && isObject(v)) { const k = Object.keys(v); return k.length ?
      "[" + k.map((x) => JSON.stringify(x) + ": " + build(v[x], desc.dictionary)).join(", ") +
      "]" : "[:]"; }
    // A struct without stored members encodes as {}: written as its initializer.
    if (isObject(v) && !Object.keys(v).length && s !== "Dictionary") return displayName(t) + "()";
    return untyped(v);
  }
  function shortSwift(v, type, width) {
    width = width || 80; const t = swift(v, type);
    return t.length > width ? t.slice(0, width - 1) + "…" : t;
  }
  return { swift, shortSwift, typeAt, typeStep, shownWhole, dictionaryArguments, entries,
    unwrapOptional, displayName, TYPES };
}
