/// A collection that can tell a recorder which of its positions may have changed since an
/// older version, without comparing every element.
package protocol PositionallyDiffable {
  /// The number of elements.
  var count: Int { get }

  /// The positions that may differ from `old`, or `nil` when `old` is not an older version of
  /// the same length and ids (elements were inserted, removed or reordered).
  func _positionsThatMayDiffer(fromAny old: Any) -> [Range<Int>]?

  /// The element at `position`.
  func _element(at position: Int) -> Any
}

extension IdentifiedArray: PositionallyDiffable {
  package func _positionsThatMayDiffer(fromAny old: Any) -> [Range<Int>]? {
    guard let old = old as? Self else { return nil }
    return _positionsThatMayDiffer(from: old)
  }

  package func _element(at position: Int) -> Any { self[position] }
}
