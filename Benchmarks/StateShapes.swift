import Architecture
import Foundation

/// One element of the collection shapes: a title and a flag, like a todo without an id.
struct ShapeItem: Codable, Equatable, Hashable, Identifiable, Sendable {
  var id: Int
  var title: String
  var isDone = false
}

/// A reducer over any state whose one action makes one small edit, chosen by the step number.
struct EditFeature<State: Codable & Equatable & Sendable>: Reducer {
  enum Action: Codable, Equatable, Sendable { case edited(Int) }
  let edit: @Sendable (inout State, Int) -> Void

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .edited(let step): edit(&state, step)
    }
    return .none
  }
}

struct PlainArrayState: Codable, Equatable, Sendable { var items: [ShapeItem] }
struct IdentifiedState: Codable, Equatable, Sendable { var items: IdentifiedArrayOf<ShapeItem> }
struct DictionaryState: Codable, Equatable, Sendable { var items: [String: ShapeItem] }
struct SetState: Codable, Equatable, Sendable { var members: Set<Int> }
struct TextState: Codable, Equatable, Sendable { var text: String }
struct BlobState: Codable, Equatable, Sendable { var blob: Data }

/// Which element step `step` edits: spread over the collection, as a person would.
func spread(_ step: Int, _ count: Int) -> Int { step &* 7_919 % count }

func items(_ count: Int) -> [ShapeItem] {
  (0..<count).map { ShapeItem(id: $0, title: "Item number \($0)", isDone: $0.isMultiple(of: 3)) }
}

/// The shapes of issue 18 at `count` elements (strings and `Data` are 1 MB whatever `count`).
@MainActor
func stateShapes(count: Int) -> [ShapeRun] {
  [
    ShapeRun(
      Shape(
        name: "identified array, \(count) items, toggling one",
        reducer: EditFeature<IdentifiedState> { state, step in
          state.items[spread(step, count)].isDone.toggle()
        },
        initialState: IdentifiedState(items: IdentifiedArray(uniqueElements: items(count))),
        action: { .edited($0) })),
    ShapeRun(
      Shape(
        name: "plain array, \(count) items, toggling one",
        reducer: EditFeature<PlainArrayState> { state, step in
          state.items[spread(step, count)].isDone.toggle()
        },
        initialState: PlainArrayState(items: items(count)),
        action: { .edited($0) })),
    ShapeRun(
      Shape(
        name: "dictionary, \(count) entries, toggling one",
        reducer: EditFeature<DictionaryState> { state, step in
          state.items["item \(spread(step, count))"]?.isDone.toggle()
        },
        initialState: DictionaryState(
          items: Dictionary(uniqueKeysWithValues: items(count).map { ("item \($0.id)", $0) })),
        action: { .edited($0) })),
    ShapeRun(
      Shape(
        name: "set, \(count) members, inserting or removing one",
        reducer: EditFeature<SetState> { state, step in
          let member = spread(step, count)
          if state.members.remove(member) == nil { state.members.insert(member) }
        },
        initialState: SetState(members: Set(0..<count)),
        action: { .edited($0) })),
  ]
}

/// A 1 MB string typed into and a 1 MB `Data` with one byte set per step.
@MainActor
func longValueShapes() -> [ShapeRun] {
  let size = 1_000_000
  return [
    ShapeRun(
      Shape(
        name: "1 MB string, one character typed or deleted",
        reducer: EditFeature<TextState> { state, step in
          let offset = spread(step / 2, size - 1)
          let index = state.text.utf8.index(state.text.startIndex, offsetBy: offset)
          if step.isMultiple(of: 2) {
            state.text.insert("x", at: index)
          } else {
            state.text.remove(at: index)
          }
        },
        initialState: TextState(text: String(repeating: "lorem ipsum ", count: size / 12)),
        action: { .edited($0) })),
    ShapeRun(
      Shape(
        name: "1 MB Data, one byte set",
        reducer: EditFeature<BlobState> { state, step in
          state.blob[spread(step, size)] = UInt8(truncatingIfNeeded: step)
        },
        initialState: BlobState(blob: Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })),
        action: { .edited($0) })),
  ]
}
