@testable import PlainFeatures

/// The factory the generated podcast-shelf tests build their reducer with: written once, by
/// hand, as `gen-test`'s comment asks for a reducer with an init parameter.
extension PodcastShelf {
  static func forGeneratedTests() -> Self {
    PodcastShelf(favorite: PodcastShelf.favoriteOnServer)
  }
}
