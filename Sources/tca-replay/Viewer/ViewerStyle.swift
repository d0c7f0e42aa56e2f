// The page's css lives in a Swift string so the tool is one binary that needs no resources.
// Edit it here; the browser test (.ci/browser-test) checks the page it makes.

/// The viewer page's style sheet.
enum ViewerStyle {
  static let css = #"""
    :root { --bg:#fff; --fg:#1d1d1f; --muted:#6e6e73; --line:#d9d9de; --sel:#dbe9ff;
      --send:#2f6fdb; --effect:#d9822b; --ok:#2e9d5b; --cancel:#8e8e93; --run:#c9a100;
      --crash:#d62c2c; --chg:#fff1b8; --add:#d6f5dd; --del:#fde0e0; }
    * { box-sizing: border-box; }
    body { margin:0; font:13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color:var(--fg);
      background:var(--bg); height:100vh; display:flex; flex-direction:column; overflow:hidden; }
    header { display:flex; gap:12px; align-items:center; padding:6px 10px;
      border-bottom:1px solid var(--line); flex-wrap:wrap; }
    header h1 { font-size:14px; margin:0; font-weight:600; }
    header .meta { color:var(--muted); }
    header .keys { color:var(--muted); margin-left:auto; font-size:12px; }
    input, select, button { font:inherit; }
    input[type=text], input[type=search], input[type=number] { padding:2px 5px;
      border:1px solid var(--line); border-radius:4px; }
    button { padding:2px 8px; border:1px solid var(--line); border-radius:4px; background:#f5f5f7;
      cursor:pointer; }
    #timeline-wrap { border-bottom:1px solid var(--line); position:relative; }
    #timeline { display:block; width:100%; height:150px; cursor:crosshair; }
    #timeline-status { position:absolute; right:8px; top:2px; color:var(--muted); font-size:11px;
      pointer-events:none; background:rgba(255,255,255,.8); }
    main { flex:1; display:grid; grid-template-columns: minmax(260px, 30%) 1fr minmax(300px, 32%);
      min-height:0; }
    section { display:flex; flex-direction:column; min-height:0; border-right:1px solid var(--line); }
    section h2 { font-size:12px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted);
      margin:0; padding:6px 8px 4px; }
    .filters { display:flex; gap:4px; padding:0 8px 6px; flex-wrap:wrap; }
    .filters input { flex:1; min-width:80px; }
    #list { flex:1; overflow-y:auto; position:relative; font-family:ui-monospace, Menlo, monospace;
      font-size:12px; }
    #list .row { position:absolute; left:0; right:0; height:22px; padding:2px 8px; white-space:nowrap;
      overflow:hidden; text-overflow:ellipsis; cursor:pointer; border-bottom:1px solid #f0f0f2; }
    #list .row:hover { background:#f2f6ff; }
    #list .row.selected { background:var(--sel); }
    #list .row.compare { box-shadow: inset 3px 0 var(--effect); }
    .idx { color:var(--muted); display:inline-block; min-width:44px; }
    .o-send { color:var(--send); } .o-effect { color:var(--effect); }
    .count { color:var(--muted); padding:0 8px 4px; font-size:12px; }
    #step-head { padding:4px 8px; border-bottom:1px solid var(--line); }
    #step-head .label { font-family:ui-monospace, Menlo, monospace; word-break:break-all; }
    #step-head .why { color:var(--muted); font-size:12px; }
    #step-head a { color:var(--send); cursor:pointer; }
    #tree { flex:1; overflow:auto; padding:4px 8px 40px; font-family:ui-monospace, Menlo, monospace;
      font-size:12px; }
    .node { white-space:nowrap; }
    .node > .line { cursor:pointer; padding:0 2px; border-radius:3px; }
    .node > .line:hover { background:#f2f6ff; }
    .node > .line.picked { outline:1px solid var(--send); }
    .node > .line.changed { background:var(--chg); }
    .node > .line.inside { box-shadow: inset 2px 0 #e0b000; }
    .kids { padding-left:16px; border-left:1px dotted var(--line); margin-left:4px; }
    .tw { display:inline-block; width:12px; color:var(--muted); }
    .key { color:#7a3e9d; } .str { color:#1a7f37; } .num { color:#0550ae; } .lit { color:#cf222e; }
    .sum { color:var(--muted); }
    #side { border-right:none; }
    .tabs { display:flex; border-bottom:1px solid var(--line); }
    .tabs button { border:none; border-radius:0; background:none; padding:6px 10px;
      border-bottom:2px solid transparent; }
    .tabs button.on { border-bottom-color:var(--send); font-weight:600; }
    .pane { flex:1; overflow:auto; padding:8px; display:none; }
    .pane.on { display:block; }
    pre { margin:0; white-space:pre-wrap; word-break:break-all; font-family:ui-monospace, Menlo,
      monospace; font-size:12px; }
    .hits { list-style:none; margin:6px 0; padding:0; font-size:12px; }
    .hits li { padding:3px 4px; border-bottom:1px solid #f0f0f2; cursor:pointer; }
    .hits li:hover { background:#f2f6ff; }
    .hits .kind { display:inline-block; min-width:78px; font-weight:600; }
    .k-appears, .k-inserted { color:var(--ok); } .k-disappears, .k-removed { color:var(--crash); }
    .k-changes, .k-changed { color:#9a6700; } .k-moved { color:var(--send); }
    .hits code { font-family:ui-monospace, Menlo, monospace; }
    .diff { width:100%; border-collapse:collapse; table-layout:fixed; font-size:12px; }
    .diff th { text-align:left; color:var(--muted); font-weight:500; border-bottom:1px solid var(--line); }
    .diff td { vertical-align:top; border-bottom:1px solid #f0f0f2; padding:2px 4px;
      font-family:ui-monospace, Menlo, monospace; word-break:break-all; }
    .diff td.a { background:var(--del); } .diff td.b { background:var(--add); }
    .diff td.p { color:#7a3e9d; }
    .note { color:var(--muted); font-size:12px; margin:4px 0; }
    .crash-banner { background:var(--crash); color:#fff; padding:2px 8px; border-radius:4px; }
    """#
}
