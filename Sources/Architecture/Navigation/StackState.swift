/// The state of a navigation stack: the features pushed on it, in order, each with its own
/// ``StackElementID``.
///
/// ```swift
/// struct State: Equatable {
///   var path = StackState<Path.State>()
/// }
///
/// case .detailButtonTapped(let item):
///   state.path.append(.detail(DetailFeature.State(item: item)))
/// ```
///
/// It is a random-access, mutable collection of the elements. Appending gives an element the
/// next id from `@Dependency(\.stackElementID)`; ids are never reused. It is `Equatable` and
/// `Hashable` (ids included) and `Codable` when its elements are. It encodes as an array of
/// `{"id":…,"element":…}`, so a recorded state keeps its ids; it also decodes a plain array of
/// elements, as TCA encodes a stack, giving each the next id.
public struct StackState<Element> {
  /// The ids of the elements, in order.
  public private(set) var ids: OrderedSet<StackElementID>
  private var elements: [Element]

  /// An empty stack.
  public init() {
    self.ids = []
    self.elements = []
  }

  /// A stack of `elements`, each given the next id.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// The element with this id, or `nil`. Setting an element for an id not in the stack appends
  /// it with that id; setting `nil` removes it alone (use ``pop(from:)`` to remove what is above).
  public subscript(id id: StackElementID) -> Element? {
    get { ids.firstIndex(of: id).map { elements[$0] } }
    set {
      if let index = ids.firstIndex(of: id) {
        if let newValue {
          elements[index] = newValue
        } else {
          ids.remove(at: index)
          elements.remove(at: index)
        }
      } else if let newValue {
        ids.append(id)
        elements.append(newValue)
      }
    }
    _modify {
      guard let index = ids.firstIndex(of: id) else {
        var element: Element? = nil
        yield &element
        if let element { self[id: id] = element }
        return
      }
      var element: Element? = elements[index]
      yield &element
      if let element { elements[index] = element } else { self[id: id] = nil }
    }
  }

  /// The element with this id, in the case `path` names, or `nil`.
  ///
  /// ```swift
  /// state.path[id: id, case: /Path.State.detail]?.isEditing = true
  /// ```
  public subscript<Case>(id id: StackElementID, case path: AnyCasePath<Element, Case>) -> Case? {
    get { self[id: id].flatMap(path.extract(from:)) }
    set {
      guard let newValue, self[id: id].flatMap(path.extract(from:)) != nil else { return }
      self[id: id] = path.embed(newValue)
    }
  }

  /// Pushes `element`, with the next id from `@Dependency(\.stackElementID)`.
  public mutating func append(_ element: Element) {
    @Dependency(\.stackElementID) var stackElementID
    ids.append(stackElementID.next())
    elements.append(element)
  }

  /// Removes the element with this id and every element above it.
  ///
  /// - Returns: Whether the id was in the stack.
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let index = ids.firstIndex(of: id) else { return false }
    removeLast(count - index)
    return true
  }

  /// Removes every element above the one with this id, which stays.
  ///
  /// - Returns: Whether the id was in the stack.
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let index = ids.firstIndex(of: id) else { return false }
    removeLast(count - index - 1)
    return true
  }
}

extension StackState: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }

  public subscript(position: Int) -> Element {
    get { elements[position] }
    set { elements[position] = newValue }
    _modify { yield &elements[position] }
  }

  /// Replaces the elements in `subrange`; each new element is given the next id.
  public mutating func replaceSubrange(
    _ subrange: Range<Int>, with newElements: some Collection<Element>
  ) {
    @Dependency(\.stackElementID) var stackElementID
    var ids = Array(self.ids)
    ids.replaceSubrange(subrange, with: newElements.map { _ in stackElementID.next() })
    self.ids = OrderedSet(ids)
    elements.replaceSubrange(subrange, with: newElements)
  }
}

extension StackState: ExpressibleByArrayLiteral {
  /// A stack of the listed elements, each given the next id.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.elements == rhs.elements
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ids)
    hasher.combine(elements)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Encodable where Element: Encodable {
  /// Encodes the elements in order, each with its id: `[{"id":0,"element":…}, …]`.
  ///
  /// The ids are part of the state: actions name elements by them, so a replay that starts
  /// from a recorded state must get the same ones.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for (id, element) in zip(ids, elements) {
      try container.encode(Entry(id: id, element: element))
    }
  }
}

extension StackState: Decodable where Element: Decodable {
  /// Decodes what ``encode(to:)`` writes, keeping the ids; or a plain array of elements, as
  /// TCA encodes a stack, giving each the next id.
  public init(from decoder: any Decoder) throws {
    if let entries = try? [Entry](from: decoder) {
      self.init()
      for entry in entries {
        guard !ids.contains(entry.id) else {
          throw DecodingError.dataCorrupted(
            DecodingError.Context(
              codingPath: decoder.codingPath,
              debugDescription: "The stack holds the element id \(entry.id) twice."
            )
          )
        }
        self[id: entry.id] = entry.element
      }
      DependencyValues._current.stackElementID.skip(past: ids.max() ?? -1)
    } else {
      self.init(try [Element](from: decoder))
    }
  }
}

extension StackState {
  /// An element with its id, as a stack encodes it.
  struct Entry {
    var id: StackElementID
    var element: Element
  }
}

extension StackState.Entry: Encodable where Element: Encodable {}
extension StackState.Entry: Decodable where Element: Decodable {}

extension StackState: CustomDumpReflectable {
  package var customDumpMirror: Mirror {
    Mirror(
      self,
      unlabeledChildren: zip(ids, elements).map { (id: $0, element: $1) },
      displayStyle: .dictionary
    )
  }
}
