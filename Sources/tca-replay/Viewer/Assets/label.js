"use strict";
// The action list's short form of a label. Steps in a run differ at the end of their labels
// (`.destination(.presented(.addBook(.binding(.set(\.$isbn, "978-0")))))`), so a label too wide
// for its row loses its outside, never its end:
//   1. a label that fits is shown whole;
//   2. otherwise enclosing cases whose last argument is a case are peeled from the outside in,
//      as few as needed, the last one peeled named (with its other arguments when they fit)
//      before " › ": `…addBook › .binding(.set(\.$isbn, "978-0"))`, `…todo(id: 3) › .checked`;
//   3. when the innermost case alone does not fit (or the label is no such chain), its middle
//      is cut, a third of the room kept for its start and the rest for its end.
// Control and bidi characters show as \u{…}, so no label can hide or reorder what is shown.
// Pure functions of strings, so Tests/ToolTests/ViewerLabelTests.swift runs them in node.
const ViewerLabel = (function () {
  const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
  // `text` with each control and bidi character written as \u{…}.
  function visible(text) {
    return text.replace(INVISIBLE, (c) => "\\u{" + c.charCodeAt(0).toString(16).toUpperCase() +
      "}");
  }
  const CASE = /^\.([\p{L}_][\p{L}\p{N}_]*)\(/u;
  // `.name(id: 3, label: .inner…)` → [name, ".inner…", "id: 3"]; null when it wraps no case.
  function unwrap(text) {
    const m = CASE.exec(text);
    if (!m || text[text.length - 1] !== ")") return null;
    let depth = 0, quoted = false, lastArgument = m[0].length;
    for (let i = m[0].length - 1; i < text.length; i++) {
      const c = text[i];
      if (quoted) { if (c === "\\") i++; else if (c === "\"") quoted = false; continue; }
      if (c === "\"") quoted = true;
      else if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || c === "}") {
        depth--;
        if (depth === 0 && i !== text.length - 1) return null; // `.a(x).b`: not one case
      } else if (c === "," && depth === 1) lastArgument = i + 1;
    }
    if (depth !== 0 || quoted) return null;
    const inner = text.slice(lastArgument, -1).trim().replace(/^[\p{L}_][\p{L}\p{N}_]*: /u, "");
    const others = text.slice(m[0].length, lastArgument).replace(/,\s*$/, "").trim();
    return /^\.[\p{L}_]/u.test(inner) ? [m[1], inner, others] : null;
  }
  // The longest `start…end` of `text` that fits, a third of it start.
  function middle(text, fits) {
    if (fits(text)) return text;
    const points = Array.from(text);
    const cut = (n) => { const head = Math.floor(n / 3);
      return points.slice(0, head).join("") + "…" + points.slice(points.length - (n -
        head)).join(""); };
    let lo = 0, hi = points.length - 1; // the most code points kept that fit: lo
    while (lo < hi) { const n = (lo + hi + 1) >> 1; if (fits(cut(n))) lo = n; else hi = n - 1; }
    return cut(lo);
  }
  // Peeling stops at this depth and length: past them a label is a dump, cut in the middle.
  const MAX_PEELS = 32, MAX_PEELED_LENGTH = 4000;
  // What the list shows of `label`; `fits(text)` says whether `text` fits the row.
  function shorten(label, fits) {
    const text = visible(label);
    if (fits(text)) return text;
    let inner = text;
    for (let k = 0; k < MAX_PEELS && inner.length <= MAX_PEELED_LENGTH; k++) {
      const peeled = unwrap(inner);
      if (!peeled) break;
      inner = peeled[1];
      // The peeled case's other arguments tell elements apart: `…todo(id: 3) › .checked`.
      if (peeled[2] && fits("…" + peeled[0] + "(" + peeled[2] + ") › " + inner))
        return "…" + peeled[0] + "(" + peeled[2] + ") › " + inner;
      if (fits("…" + peeled[0] + " › " + inner)) return "…" + peeled[0] + " › " + inner;
    }
    return middle(inner === text ? text : "…" + inner, fits);
  }
  return { shorten: shorten, visible: visible, unwrap: unwrap };
})();
if (typeof module === "object" && module.exports) module.exports = ViewerLabel;
