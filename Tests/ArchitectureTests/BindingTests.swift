@testable import Architecture
import Foundation
import Testing

/// A settings form in TCA 1.3 style: two bindable text fields of the same type, a toggle, a
/// nested bindable field, and a plain counter that the reducer bumps when `$name` changes.
private struct Feature: Reducer {
  struct State: Equatable, Codable {
    @BindingState var name = ""
    @BindingState var nickname = ""
    @BindingState var isOn = false
    var child = Child()
    var count = 0
    var bindingCount = 0
  }

  struct Child: Equatable, Codable {
    @BindingState var note = ""
  }

  enum Action: BindableAction, Equatable, Codable {
    case binding(BindingAction<State>)
    case turnOnLater
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.$name):
        state.count += 1
        return .none
      case .binding:
        state.bindingCount += 1
        return .none
      case .turnOnLater:
        return .send(.set(\.$isOn, true))
      }
    }
  }
}

/// A feature whose key paths no code builds before its actions are decoded, as in a replay
/// process: the decoded action must still match `case .binding(\.$title)`.
private struct ReplayOnly: Reducer {
  struct State: Equatable, Codable {
    @BindingState var subtitle = ""
    @BindingState var title = ""
    var titleChanges = 0
  }

  enum Action: BindableAction, Equatable, Codable {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.$title):
        state.titleChanges += 1
        return .none
      case .binding:
        return .none
      }
    }
  }
}

/// A state whose binding actions no reducer ever applies.
private struct NeverReduced: Equatable {
  @BindingState var secret = ""
}

private func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

private func decode<T: Decodable>(_: T.Type, _ text: String) throws -> T {
  try JSONDecoder().decode(T.self, from: Data(text.utf8))
}

@MainActor
@Suite("Bindings")
struct BindingTests {
  @Test("BindableAction.set writes the field, and `case .binding(\\.$name)` sees it")
  func setThroughBindableAction() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.set(\.$name, "Blob")) {
        $0.name = "Blob"
        $0.count = 1
      }
    }
    #expect(issues.isEmpty)
  }

  @Test("`.binding(.set(…))` writes its field, and only the field's own pattern matches")
  func patternMatchesOnlyItsField() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.binding(.set(\.$isOn, true))) {
        $0.isOn = true
        $0.bindingCount = 1
      }
      await store.send(.binding(.set(\.$nickname, "Blobby"))) {
        $0.nickname = "Blobby"
        $0.bindingCount = 2
      }
    }
    #expect(issues.isEmpty)
  }

  @Test("two @BindingState fields of the same type are told apart, also once decoded")
  func sameTypeFieldsAreDistinct() throws {
    var state = Feature.State()
    let nickname = BindingAction<Feature.State>.set(\.$nickname, "Blobby")
    nickname.reduce(into: &state)
    let name = BindingAction<Feature.State>.set(\.$name, "Blobby")
    name.reduce(into: &state)

    #expect(!(\Feature.State.$name ~= nickname))
    #expect(\Feature.State.$nickname ~= nickname)
    #expect(name != nickname)

    let decoded = try decode(BindingAction<Feature.State>.self, try json(nickname))
    decoded.reduce(into: &state)
    #expect(decoded == nickname)
    #expect(decoded != name)
    #expect(\Feature.State.$nickname ~= decoded)
    #expect(!(\Feature.State.$name ~= decoded))
  }

  @Test("an action round-trips through JSON, and the decoded one applies, equals and matches")
  func jsonRoundTrip() async throws {
    let original = Feature.Action.set(\.$name, "Blob")
    // The recorder encodes an action after the reducer has applied it; so does this test.
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(original) {
      $0.name = "Blob"
      $0.count = 1
    }
    let text = try json(original)
    #expect(text == #"{"binding":{"_0":{"set":{"keyPath":"$name","value":"Blob"}}}}"#)

    let decoded = try decode(Feature.Action.self, text)
    let issues = await withIssueCapture {
      let fresh = TestStore(initialState: Feature.State()) { Feature() }
      await fresh.send(decoded) {
        $0.name = "Blob"
        $0.count = 1
      }
    }
    #expect(issues.isEmpty)
    #expect(decoded == original)
    #expect(try json(decoded) == text)
  }

  @Test("a decoded action matches `case .binding(\\.$title)` in a process that never built it")
  func decodedActionMatchesUnprobedPattern() async throws {
    #expect(BindableFields.knownName(of: \ReplayOnly.State.$title) == nil)
    let decoded = try decode(
      ReplayOnly.Action.self, #"{"binding":{"_0":{"set":{"keyPath":"$title","value":"Hi"}}}}"#
    )
    let issues = await withIssueCapture {
      let store = TestStore(initialState: ReplayOnly.State()) { ReplayOnly() }
      await store.send(decoded) {
        $0.title = "Hi"
        $0.titleChanges = 1
      }
    }
    #expect(issues.isEmpty)
    #expect(decoded == .set(\.$title, "Hi"))
    #expect(decoded != .set(\.$subtitle, "Hi"))
  }

  @Test("a binding to a nested structure's field applies, encodes by its path and decodes")
  func nestedField() throws {
    var state = Feature.State()
    let action = BindingAction<Feature.State>.set(\.child.$note, "Milk")
    action.reduce(into: &state)
    #expect(state.child.note == "Milk")

    let text = try json(action)
    #expect(text == #"{"set":{"keyPath":"child.$note","value":"Milk"}}"#)
    let decoded = try decode(BindingAction<Feature.State>.self, text)
    var fresh = Feature.State()
    decoded.reduce(into: &fresh)
    #expect(fresh.child.note == "Milk")
    #expect(decoded == action)
    #expect(\Feature.State.child.$note ~= decoded)
  }

  @Test("decoding an unknown field name throws an error naming the field and the known ones")
  func unknownFieldThrows() {
    let text = #"{"set":{"keyPath":"$nope","value":"x"}}"#
    do {
      _ = try decode(BindingAction<Feature.State>.self, text)
      Issue.record("decoding succeeded")
    } catch let DecodingError.dataCorrupted(context) {
      #expect(
        context.debugDescription == """
          Feature.State has no @BindingState field "$nope"; its bindable fields are $name, \
          $nickname, $isOn, child.$note.
          """
      )
      #expect(context.codingPath.map(\.stringValue) == ["set", "keyPath"])
    } catch {
      Issue.record("unexpected error: \(error)")
    }
  }

  @Test("encoding an action whose key path no reducer has applied throws and says why")
  func unnamedKeyPathDoesNotEncode() {
    do {
      _ = try json(BindingAction<NeverReduced>.set(\.$secret, "x"))
      Issue.record("encoding succeeded")
    } catch let EncodingError.invalidValue(_, context) {
      #expect(context.debugDescription.hasPrefix("""
        Cannot encode a binding action on NeverReduced: the name of the field its key path \
        writes to is not known yet.
        """))
    } catch {
      Issue.record("unexpected error: \(error)")
    }
  }

  @Test("@BindingState encodes, compares, prints and dumps as its wrapped value")
  func bindingStateIsTransparent() throws {
    var state = Feature.State()
    state.name = "Blob"
    #expect(try json(state).contains(#""name":"Blob""#))
    #expect(try decode(Feature.State.self, try json(state)) == state)

    var marked = state
    marked.$name.isProbeMarked = true
    #expect(marked == state)
    #expect(marked.$name.hashValue == state.$name.hashValue)

    #expect(state.$name.description == "Blob")
    #expect(String(reflecting: state.$name) == #""Blob""#)
    #expect(customDump(state).contains(#"name: "Blob","#))
  }

  @Test("a received binding action that differs is shown as `.set(\\Type.$field, value)`")
  func receiveDiffShowsKeyPathAndValue() async {
    let issues = await withIssueCapture {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(.turnOnLater)
      await store.receive(.set(\.$isOn, false)) {
        $0.isOn = true
        $0.bindingCount = 1
      }
    }
    let message = issues.first?.message ?? ""
    #expect(message.contains(#"− Feature.Action.binding(.set(\Feature.State.$isOn, false))"#))
    #expect(message.contains(#"+ Feature.Action.binding(.set(\Feature.State.$isOn, true))"#))
    #expect(
      customDump(Feature.Action.set(\.$isOn, true))
        == #"Feature.Action.binding(.set(\Feature.State.$isOn, true))"#
    )
  }
}
