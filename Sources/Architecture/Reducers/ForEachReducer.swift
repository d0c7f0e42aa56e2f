extension Reducer {
  /// Runs `element` on the element of an identified array that an action names; the element
  /// runs first.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.todos, action: /Action.todo(id:action:)) {
  ///       TodoFeature()
  ///     }
  /// }
  /// ```
  ///
  /// When an element is removed, its running effects are cancelled. An action for an id that
  /// is not in the array is reported, not run.
  @inlinable
  public func forEach<ElementState, ElementAction, ID: Hashable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: AnyCasePath<Action, (ID, ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    _ForEachReducer(
      parent: self,
      element: element(),
      toElementsState: toElementsState,
      toElementAction: toElementAction,
      site: IfLetSite(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `forEach` returns.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable, Element: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toElementsState:
    WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline let toElementAction: AnyCasePath<Parent.Action, (ID, Element.Action)>
  @usableFromInline let site: IfLetSite
  /// Where the elements lie inside the parent's state, when the key path names a stored
  /// property (as `\.todos` does); `nil` otherwise.
  @usableFromInline let elementsOffset: Int?

  @usableFromInline
  init(
    parent: Parent,
    element: Element,
    toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: AnyCasePath<Parent.Action, (ID, Element.Action)>,
    site: IfLetSite
  ) {
    self.parent = parent
    self.element = element
    self.toElementsState = toElementsState
    self.toElementAction = toElementAction
    self.site = site
    self.elementsOffset = MemoryLayout<Parent.State>.offset(of: toElementsState)
  }

  /// Runs `body` on the elements in `state`.
  ///
  /// Through a pointer when the key path names a stored property: applying a key path costs
  /// more than reducing a typical element.
  @inlinable
  func withElements<R>(
    in state: inout Parent.State,
    _ body: (inout IdentifiedArray<ID, Element.State>) -> R
  ) -> R {
    guard let offset = elementsOffset else { return body(&state[keyPath: toElementsState]) }
    return withUnsafeMutableBytes(of: &state) { bytes in
      body(
        &(bytes.baseAddress! + offset)
          .assumingMemoryBound(to: IdentifiedArray<ID, Element.State>.self).pointee
      )
    }
  }

  // Inlinable, so that it is specialized for the app's types where the app calls it: unspecialized,
  // its generic types' metadata and value witnesses cost more than the element's reducer.
  @inlinable
  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    let (elementEffects, ids) = reduceElement(into: &state, action: action)
    let idsBefore = ids ?? withElements(in: &state) { $0.ids }
    let parentEffects = parent.reduce(into: &state, action: action)
    let idsAfter = withElements(in: &state) { $0.ids }
    // Usually the parent leaves the ids alone, and they still share storage: an O(1) check.
    guard idsBefore != idsAfter else {
      return elementEffects.merge(with: parentEffects)
    }
    let elements = state[keyPath: toElementsState]
    let cancellations = idsBefore.filter { elements[id: $0] == nil }.map {
      Effect<Parent.Action>.cancel(id: ElementCancelID(keyPath: toElementsState, id: $0))
    }
    return .merge([elementEffects, parentEffects] + cancellations)
  }

  /// Runs the element reducer if the action is for an element; returns its effect and, if the
  /// action was for an element, the ids after it ran.
  @inlinable
  func reduceElement(
    into state: inout Parent.State, action: Parent.Action
  ) -> (Effect<Parent.Action>, OrderedSet<ID>?) {
    guard let (id, elementAction) = toElementAction.extract(from: action) else {
      return (.none, nil)
    }
    let cancelID = ElementCancelID(keyPath: toElementsState, id: id)
    // One access through the key path finds the element, reduces it and reads the ids: key
    // path accesses are dear.
    let (effect, ids) = NavigationPath.withComponent(cancelID) {
      withElements(in: &state) {
        Self.reduce(element, in: &$0, id: id, action: elementAction) { index in
          BlameFrame(
            kind: "forEach", site: site.reducerSite,
            segment: .element(toElementsState, index: index), isLeaf: false)
        }
      }
    }
    guard let effect else {
      reportMissingElement(action: action)
      return (.none, ids)
    }
    // Most element actions return no effect, and `.none` made cancellable would do nothing.
    guard !effect.isNone else { return (.none, ids) }
    let toElementAction = self.toElementAction
    return (effect.map { toElementAction.embed((id, $0)) }.cancellable(id: cancelID), ids)
  }

  /// Runs `element` on the element with this id, if there is one (nil otherwise), and reads the
  /// ids after.
  @inlinable
  static func reduce(
    _ element: Element,
    in elements: inout IdentifiedArray<ID, Element.State>,
    id: ID,
    action: Element.Action,
    frame: (Int) -> BlameFrame
  ) -> (Effect<Element.Action>?, OrderedSet<ID>) {
    guard let index = elements.index(id: id) else { return (nil, elements.ids) }
    let effect = Blame.run(frame(index), &elements[index]) {
      element.reduce(into: &$0, action: action)
    }
    return (effect, elements.ids)
  }

  @usableFromInline
  func reportMissingElement(action: Parent.Action) {
    reportIssue(
      """
      A "forEach" at "\(site.fileID):\(site.line)" received an action for a missing element. …

        Action:
          \(customDump(action))

      This is generally considered an application logic error, and can happen for a few \
      reasons:

      • A parent reducer removed an element with this ID before this reducer ran. This \
      reducer must run before any other reducer removes an element, which ensures that \
      element reducers can handle their actions while their state is still available.

      • An in-flight effect emitted this action when state contained no element at this ID. \
      While it may be perfectly reasonable to ignore this action, consider canceling the \
      associated effect before an element is removed, especially if it is a long-living \
      effect.

      • This action was sent to the store while its state contained no element at this ID. \
      To fix this make sure that actions for this reducer can only be sent from a view store \
      when its state contains an element at this id.
      """,
      fileID: site.fileID,
      filePath: site.filePath,
      line: site.line,
      column: site.column
    )
  }
}

/// Identifies the effects of one element of a `forEach`.
///
/// Generic over the id rather than holding an `AnyHashable`, which would box the id apart.
/// Key paths without captured values are immutable, so sharing one across tasks is safe.
@usableFromInline
// unchecked: a key path (not marked Sendable) and an id that need only be Hashable, as in TCA
struct ElementCancelID<ID: Hashable>: Hashable, @unchecked Sendable,
  CustomDebugStringConvertible
{
  @usableFromInline let keyPath: AnyKeyPath
  @usableFromInline let id: ID

  /// `\State.rows[id: 3]`.
  @usableFromInline
  var debugDescription: String {
    "\(StableNames.name(of: keyPath))[id: \(String(reflecting: id))]"
  }

  @usableFromInline
  init(keyPath: AnyKeyPath, id: ID) {
    self.keyPath = keyPath
    self.id = id
  }
}
