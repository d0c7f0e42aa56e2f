extension ViewerPage {
  /// The served page's Content-Security-Policy: the static page's, plus `connect-src 'self'`
  /// for its event stream; framing is forbidden, so no other site can overlay it.
  static let liveContentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    + "img-src data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    + "form-action 'none'"

  /// The page `view --serve` serves: the viewer without a trace, which `live.js` starts when
  /// the stream's `header` event arrives and feeds each step to as it is recorded.
  ///
  /// The viewer's script (the `viewer-*.js` files, one function body) is `startViewer` here,
  /// called once the document exists; the static page calls it as it loads.
  static func liveHTML(title: String, whatIf: Bool = false) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="\(liveContentSecurityPolicy)">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>\(escapingHTML(title)) · tca-replay view --serve</title>
    <style>
    \(ViewerAssets.style)</style>
    </head>
    <body\(whatIf ? " data-what-if" : "")>
    \(ViewerMarkup.body)
    <script type="application/json" id="trace-data"></script>
    <script>
    \(ViewerAssets.label)\(ViewerAssets.values)</script>
    <script>
    function startViewer() {
    \(ViewerAssets.script)}
    </script>
    <script>
    \(ViewerAssets.live)</script>
    </body>
    </html>

    """
  }
}
