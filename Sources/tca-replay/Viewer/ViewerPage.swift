/// The viewer's HTML page: one self-contained file with its style, its script and the trace.
///
/// The style and scripts are `Viewer/Assets/viewer.css`, `label.js`, `values.js` and the
/// `viewer-*.js` files, compiled in by `Scripts/embed-viewer-assets`; each ends with a newline,
/// so the closing tag follows on its own line. The `viewer-*.js` files are one function body,
/// called here as the page loads (and by `liveHTML` as `startViewer`), so their names stay
/// local to it.
///
/// Nothing is fetched: no network, no fonts, no other files, so the page opens from `file://`
/// and works offline. The trace is a `<script type="application/json">` element the page's
/// script parses; every trace string reaches the page through `textContent`, never as markup.
enum ViewerPage {
  /// The page for `document`, titled after the trace.
  static func html(_ document: ViewerDocument, title: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
    style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escapingHTML(title)) · tca-replay view</title>
    <style>
    \(ViewerAssets.style)</style>
    </head>
    <body>
    \(ViewerMarkup.body)
    <script type="application/json" id="trace-data">\(document.scriptText)</script>
    <script>
    \(ViewerAssets.label)\(ViewerAssets.values)</script>
    <script>
    (function () {
    \(ViewerAssets.script)})();
    </script>
    </body>
    </html>

    """
  }

  /// `text` safe as HTML text or an attribute value.
  static func escapingHTML(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}
