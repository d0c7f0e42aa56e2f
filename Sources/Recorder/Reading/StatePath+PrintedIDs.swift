import TraceJSON

extension StatePath {
  /// Parses a path whose selectors may name ids as the tool prints them, like `StatePath(_:)`
  /// otherwise: `/messages[id=UUID(1)]/text`, `[id=0000…0001]`, `[id=#3]`, `[key=2026-…Z]`.
  package init?(reading text: String) {
    guard let path = StatePath(text) else { return nil }
    self = path.readingPrintedIDs()
  }

  /// The path with each bare selector value read as ``PrintedForm`` writes ids: `UUID(7)` and
  /// a whole UUID as its bare text, `UUID(3F2504E0…)` as the ends it keeps, a date as its
  /// seconds, a stack id `#3` as `3`.
  package func readingPrintedIDs() -> StatePath {
    StatePath(
      components: components.map { component in
        switch component {
        case .element(id: .text(let text)): .element(id: Self.printedID(text))
        case .key(.text(let text)): .key(Self.printedID(text))
        default: component
        }
      })
  }

  private static func printedID(_ text: String) -> ElementID {
    switch PrintedForm.uuid(reading: text) {
    // Bare, as search and watch name the element: no number is written as a UUID is.
    case .exact(let uuid)?: return .text(uuid)
    case .elided(let prefix, let suffix)?: return .text(prefix + "…" + suffix)
    case nil: break
    }
    if let seconds = PrintedForm.date(reading: text) { return .json(.double(seconds)) }
    if text.hasPrefix("#"), let id = Int64(text.dropFirst()) { return .json(.integer(id)) }
    return .text(text)
  }
}
