// Appended by browser_check.py to a copy of a viewer page, after the page's own script: measures
// what a person sees, which a DOM dump does not tell, and leaves it on <body data-measured>.
// It reads the rendering only (boxes and pixels), so it measures an old page as well as a new.
(function () {
  const measured = { width: innerWidth, rows: [] };
  // Each action-list row: the text of its label up to where the row clips it.
  for (const row of document.querySelectorAll("#list .row")) {
    const spans = row.querySelectorAll("span"), node = spans[spans.length - 1].firstChild;
    const text = node ? node.data : "";
    const box = row.getBoundingClientRect(), style = getComputedStyle(row);
    const right = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
    const range = document.createRange();
    let lo = 0, hi = text.length; // the most characters whose boxes end inside the row
    while (node && lo < hi) {
      const m = (lo + hi + 1) >> 1;
      range.setStart(node, 0); range.setEnd(node, m);
      if (range.getBoundingClientRect().right <= right + 0.5) lo = m; else hi = m - 1;
    }
    measured.rows.push({ p: +row.dataset.p, shown: text.slice(0, lo), clipped: lo < text.length,
      title: row.title });
  }
  // The timeline: the leftmost and rightmost coloured pixel on the two step lanes (y 22 and
  // 44, past the lane names), in CSS pixels, and the canvas's width.
  const canvas = document.getElementById("timeline"), dpr = devicePixelRatio || 1;
  const context = canvas.getContext("2d");
  let first = null, last = null;
  for (const lane of [22, 44]) {
    const pixels = context.getImageData(0, Math.round(lane * dpr), canvas.width, 1).data;
    for (let x = Math.round(60 * dpr); x < canvas.width; x++) {
      const r = pixels[4 * x], g = pixels[4 * x + 1], b = pixels[4 * x + 2];
      if (pixels[4 * x + 3] < 128 || Math.max(r, g, b) - Math.min(r, g, b) < 80) continue;
      if (first === null || x < first) first = x;
      if (last === null || x > last) last = x;
    }
  }
  measured.timeline = { width: canvas.clientWidth, first: first === null ? null : first / dpr,
    last: last === null ? null : last / dpr };
  document.body.dataset.measured = JSON.stringify(measured);
})();
