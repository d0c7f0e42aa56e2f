/// The embed and extract of a case path to an enum case without a payload (`/Action.tapped`).
///
/// Extracting compares the root's case tag with the case's, read once from the runtime's metadata;
/// `==` is the fallback only for a root type that is not an enum.
// unchecked: lets only; `Root` is a case without a payload, which holds no state
final class PayloadlessCase<Root>: @unchecked Sendable {
  private let root: Root
  private let metadata: EnumMetadata?
  private let tag: UInt32
  private let isEqual: (Root, Root) -> Bool

  init(_ root: Root) where Root: Equatable {
    self.root = root
    self.metadata = EnumMetadata(Root.self)
    self.tag = self.metadata?.tag(of: root) ?? 0
    self.isEqual = { $0 == $1 }
  }

  /// The case path: built here, outside the `Equatable`-constrained operator, so that its
  /// `@Sendable` closures capture no conformance.
  var casePath: AnyCasePath<Root, Void> {
    AnyCasePath(embed: { _ in self.root }, extract: { self.extract(from: $0) })
  }

  /// Returns `()` if `root` is the case, and `nil` otherwise.
  func extract(from root: Root) -> Void? {
    guard let metadata else { return self.isEqual(root, self.root) ? () : nil }
    return metadata.tag(of: root) == self.tag ? () : nil
  }
}
