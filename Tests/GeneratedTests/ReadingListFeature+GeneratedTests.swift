@testable import Shapes

/// The factory the generated reading-list tests build their reducer with: written once, by
/// hand, as `gen-test`'s comment asks for a reducer with an init parameter.
extension ReadingListFeature {
  static func forGeneratedTests() -> Self {
    ReadingListFeature(isFavourite: { $0.hasPrefix("Dune") })
  }
}
