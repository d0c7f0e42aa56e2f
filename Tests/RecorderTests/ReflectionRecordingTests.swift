import Architecture
import Foundation
import Testing

@testable import Recorder
@testable import TraceJSON

/// A library app as a TCA user writes it, with no conformance for the tool: a sheet with an
/// alert whose action enum is empty, a stack, a binding, a failing request shown by its
/// description, and a reducer that takes a closure.
struct ReflectedLibrary: Reducer {
  struct Book: Equatable, Identifiable {
    let id: UUID
    var title: String
    var shelf: Shelf
  }
  enum Shelf: Equatable { case reading, done(rating: Int) }
  struct State: Equatable {
    var books: IdentifiedArrayOf<Book> = []
    @BindingState var query = ""
    @BindingState var shelfFilter: Shelf? = nil
    @PresentationState var alert: AlertState<Alert>?
    var path = StackState<ReflectedLibraryDetail.State>()
    var message: String?
  }
  enum Alert: Equatable {}
  enum Action: BindableAction, Equatable {
    case addTapped(String)
    case binding(BindingAction<State>)
    case alert(PresentationAction<Alert>)
    case path(StackAction<ReflectedLibraryDetail.State, ReflectedLibraryDetail.Action>)
    case openTapped(Book.ID)
    case lookup(TaskResult<Int>)
    case moved(IndexSet, Int)
  }
  struct LookupError: LocalizedError, Equatable {
    var errorDescription: String? { "The catalogue is closed." }
  }

  @Dependency(\.uuid) var uuid
  var rates: (String) -> Int = { $0.count }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addTapped(let title):
        state.books.append(Book(id: uuid(), title: title, shelf: .done(rating: rates(title))))
        return .none
      case .binding:
        return .none
      case .alert:
        return .none
      case .path:
        return .none
      case .openTapped(let id):
        guard let book = state.books[id: id] else { return .none }
        state.path.append(ReflectedLibraryDetail.State(book: book))
        return .send(.lookup(.failure(LookupError())))
      case .lookup(.failure(let error)):
        state.message = error.localizedDescription
        state.alert = AlertState { TextState("Lookup failed") }
        return .none
      case .lookup(.success):
        return .none
      case .moved(let source, let destination):
        state.books.move(fromOffsets: source, toOffset: destination)
        return .none
      }
    }
    .ifLet(\.$alert, action: /Action.alert)
    .forEach(\.path, action: /Action.path) { ReflectedLibraryDetail() }
  }
}

struct ReflectedLibraryDetail: Reducer {
  struct State: Equatable {
    var book: ReflectedLibrary.Book
    var notes: [String] = []
  }
  enum Action: Equatable { case noteAdded(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .noteAdded(let note):
      state.notes.append(note)
      return .none
    }
  }
}

/// Something no trace can hold: a class instance and a closure.
private final class Connection {}
private struct Holder: Reducer {
  struct State { var connection = Connection(); var count = 0 }
  enum Action { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

@MainActor
@Suite("Recording types with no conformance")
struct ReflectionRecordingTests {
  @Test("a feature with no Codable records, and its recording replays clean, and diverges when changed")
  func recordAndReplay() async throws {
    let path = temporaryTracePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = TraceRecorder(sink: try .file(atPath: path))
    let store = Store(initialState: ReflectedLibrary.State()) {
      ReflectedLibrary().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      // Its own ids: the default generator counts on across the process's stores.
      $0.stackElementID = .incrementing()
    }
    store.send(.addTapped("Dune"))
    store.send(.addTapped("Emma"))
    store.send(.binding(.set(\.$query, "em")))
    store.send(.binding(.set(\.$shelfFilter, .done(rating: 2))))
    store.send(.moved(IndexSet([1]), 0))
    store.send(.openTapped(UUID(0)))
    store.send(.path(.element(id: 0, action: .noteAdded("sand"))))
    store.send(.alert(.dismiss))
    try recorder.close()

    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#"{"set":{"keyPath":"$shelfFilter","value":{"done":{"rating":2}}}}"#))
    #expect(text.contains(#""path":"/message","value":"The catalogue is closed.""#))

    let report = try Replayer(reducer: ReflectingReducer(base: ReflectedLibrary())).replay(tracePath: path)
    #expect(report.replayed == 9)
    #expect(report.matches, "\(report.divergences)")
    let changed = ReflectedLibrary(rates: { _ in 0 })
    let broken = try Replayer(reducer: ReflectingReducer(base: changed)).replay(tracePath: path)
    #expect(broken.firstDivergence?.step == 0)
  }

  @Test("a class or a closure is recorded opaque, and replay names its place and the fix")
  func opaqueValues() throws {
    let path = temporaryTracePath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = TraceRecorder(sink: try .file(atPath: path))
    var state = Holder.State()
    let reducer = Holder().recording(to: recorder)
    _ = reducer.reduce(into: &state, action: .tapped)
    try recorder.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""connection":{"$opaque":"RecorderTests.(unknown context"#))

    #expect {
      try JSONValueDecoder().decode(
        Reflected<Holder.State>.self, from: ["connection": ["$opaque": "Connection"], "count": 1])
    } throws: { error in
      let text = "\(error)"
      return text.contains("at /connection") && text.contains("extension Connection: Decodable")
    }
  }

  private func temporaryTracePath() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("reflected-\(UUID().uuidString).ndjson").path
  }
}

/// A bank whose reducer branches on the error's type: a replay that hands it a stand-in takes
/// the other branch and diverges.
struct ReflectedBank<Failure: Error & Equatable & Sendable>: Reducer {
  struct State: Equatable { var message = "" }
  enum Action: Equatable { case transfer, transferred(TaskResult<Int>) }
  let failure: Failure
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .transfer:
      return .send(.transferred(.failure(failure)))
    case .transferred(.failure(let error as Failure)):
      state.message = "\(error) (\(error.localizedDescription))"
      return .none
    case .transferred:
      state.message = "Something went wrong"
      return .none
    }
  }
}

enum PlainBankError: Error, Equatable { case unknownRecipient(String) }
enum CodableBankError: Error, Equatable, Codable { case unknownRecipient(String) }

/// A twin of the bank whose types are `Codable`, for the typed path.
struct CodableBank: Reducer {
  struct State: Equatable, Codable { var message = "" }
  enum Action: Equatable, Codable { case transfer, transferred(TaskResult<Int>) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .transfer:
      return .send(.transferred(.failure(CodableBankError.unknownRecipient("Ada"))))
    case .transferred(.failure(let error as CodableBankError)):
      state.message = "\(error)"
      return .none
    case .transferred:
      state.message = "Something went wrong"
      return .none
    }
  }
}

@MainActor
@Suite("Errors replay as they were")
struct ErrorReplayTests {
  @Test("a failure whose error type has no conformance is rebuilt as that error on replay")
  func plainError() throws {
    let path = try record(ReflectedBank(failure: PlainBankError.unknownRecipient("Ada")))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let report = try Replayer(
      reducer: ReflectingReducer(base: ReflectedBank(failure: PlainBankError.unknownRecipient("Ada")))
    ).replay(tracePath: path)
    #expect(report.replayed == 2)
    #expect(report.matches, "\(report)")
  }

  @Test("a failure whose error type is Codable is rebuilt as that error on the typed path")
  func codableError() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("bank-\(UUID().uuidString).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = TraceRecorder(sink: try .file(atPath: path))
    let store = Store(initialState: CodableBank.State()) { CodableBank().recording(to: recorder) }
    store.send(.transfer)
    try recorder.close()
    let report = try Replayer(reducer: CodableBank()).replay(tracePath: path)
    #expect(report.replayed == 2)
    #expect(report.matches, "\(report)")
  }

  private func record<F>(_ bank: ReflectedBank<F>) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("bank-\(UUID().uuidString).ndjson").path
    let recorder = TraceRecorder(sink: try .file(atPath: path))
    let store = Store(initialState: ReflectedBank<F>.State()) { bank.recording(to: recorder) }
    store.send(.transfer)
    try recorder.close()
    return path
  }
}
