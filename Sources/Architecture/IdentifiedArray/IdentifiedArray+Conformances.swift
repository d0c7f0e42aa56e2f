extension IdentifiedArray: Equatable where Element: Equatable {
  /// Two arrays are equal when they hold equal elements in the same order.
  ///
  /// - Complexity: O(1) when both share storage, O(`count`) otherwise.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._isIdentical(to: rhs) || lhs.elementsEqual(rhs)
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.count)
    for element in self {
      hasher.combine(element)
    }
  }
}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements in brackets, like an array's description: `[Todo(id: 1, …), Todo(id: 2, …)]`.
  public var description: String {
    self.elements.description
  }
}

extension IdentifiedArray: CustomDebugStringConvertible {
  /// The type and the elements: `IdentifiedArray<Int, Todo>([Todo(id: 1, …)])`.
  public var debugDescription: String {
    "IdentifiedArray<\(String(reflecting: ID.self)), \(String(reflecting: Element.self))>"
      + "(\(self.elements.debugDescription))"
  }
}

extension IdentifiedArray: CustomReflectable {
  /// A mirror of the elements as a collection, as `dump` and state-diffing tools show an array.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: self.elements, displayStyle: .collection)
  }
}
