// The page's body lives in a Swift string so the tool is one binary that needs no resources.
// Edit it here; the browser test (.ci/browser-test) checks the page it makes.

/// The viewer page's static markup, which the script fills in.
enum ViewerMarkup {
  static let body = #"""
    <header>
      <h1 id="title">tca-replay</h1>
      <span class="meta" id="meta"></span>
      <span id="crash-banner"></span>
      <span class="keys">n/j/→ next · b/k/← back · [ ] ±10 · Home/End · c/C next/previous change of
        the picked node · / search · g go to step</span>
    </header>
    <div id="timeline-wrap"><canvas id="timeline"></canvas><div id="timeline-status"></div></div>
    <main>
      <section id="actions">
        <h2>Actions</h2>
        <div class="filters">
          <input type="search" id="f-label" placeholder="label contains…" title="Filter by label">
          <select id="f-origin" title="Filter by origin">
            <option value="">any origin</option><option value="send">sent</option>
            <option value="effect">from an effect</option>
          </select>
          <input type="search" id="f-path" placeholder="changed path, e.g. /todos"
            title="Only steps that changed this JSON Pointer or under it">
        </div>
        <div class="count" id="list-count"></div>
        <div id="list"><div id="list-spacer"></div></div>
      </section>
      <section id="state">
        <div id="step-head"></div>
        <div id="tree"></div>
      </section>
      <section id="side">
        <div class="tabs" id="tabs">
          <button data-pane="action" class="on">Action</button>
          <button data-pane="diff">Diff</button>
          <button data-pane="search">Search</button>
          <button data-pane="history">Path history</button>
        </div>
        <div class="pane on" id="pane-action"></div>
        <div class="pane" id="pane-diff">
          <div>Step <input type="text" id="diff-a" size="6"> vs <input type="text" id="diff-b"
            size="6"> <button id="diff-go">Diff</button></div>
          <p class="note">Steps by index, or "initial". Shift-click a row in the list to set the
            left step; the right one follows the selection.</p>
          <div id="diff-out"></div>
        </div>
        <div class="pane" id="pane-search">
          <form id="search-form"><input type="search" id="search" placeholder="a value or text…"
            size="24"> <button>Search history</button></form>
          <p class="note">Every step where a matching value first appears, changes or disappears,
            across the whole trace. Matches values (not member names), case-insensitively.</p>
          <div id="search-out"></div>
        </div>
        <div class="pane" id="pane-history">
          <p class="note">Click a node in the state to list every step that changed it. Elements
            of arrays whose objects have an <code>id</code> are followed by id through moves and
            inserts.</p>
          <div id="history-out"></div>
        </div>
      </section>
    </main>
    """#
}
