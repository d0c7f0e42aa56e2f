import Architecture
import Foundation
import Testing

@Suite("AlertState")
struct AlertStateTests {
  enum Action: Equatable, Hashable, Codable {
    case confirm
    case archive(id: Int)
  }

  func deleteAlert(canArchive: Bool = false) -> AlertState<Action> {
    AlertState {
      TextState("Delete?")
    } actions: {
      ButtonState(role: .destructive, action: .confirm) {
        TextState("Delete")
      }
      if canArchive {
        ButtonState(action: .send(.archive(id: 1), animation: .default)) {
          TextState("Archive")
        }
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState("This cannot be undone.")
    }
  }

  @Test("The builder lists the buttons in order, with if branches, and keeps title and message")
  func building() {
    let alert = deleteAlert(canArchive: true)
    #expect(String(state: alert.title) == "Delete?")
    #expect(alert.message.map { String(state: $0) } == "This cannot be undone.")
    #expect(alert.buttons.map(\.role) == [.destructive, nil, .cancel])
    #expect(alert.buttons.map(\.action.action) == [.confirm, .archive(id: 1), nil])
    #expect(alert.buttons[1].action.animation == .default)
    #expect(deleteAlert().buttons.count == 2)
  }

  @Test("The actions and message closures are optional")
  func optionalClosures() {
    let alert = AlertState<Action> { TextState("Saved") }
    #expect(alert.buttons.isEmpty)
    #expect(alert.message == nil)
  }

  @Test("Alerts are equal when title, buttons and message are, and hash alike")
  func equality() {
    #expect(deleteAlert() == deleteAlert())
    #expect(deleteAlert().hashValue == deleteAlert().hashValue)
    #expect(deleteAlert() != deleteAlert(canArchive: true))
    var retitled = deleteAlert()
    retitled.title = TextState("Remove?")
    #expect(retitled != deleteAlert())
    var bold = deleteAlert()
    bold.title = TextState("Delete?").bold()
    #expect(bold != deleteAlert())
  }

  @Test("An alert round-trips through JSON in a readable shape")
  func coding() throws {
    let alert = deleteAlert(canArchive: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(alert), as: UTF8.self)
    #expect(
      json == """
        {"actions":[{"action":{"send":{"confirm":{}}},"label":"Delete","role":"destructive"},\
        {"action":{"animation":"default","send":{"archive":{"id":1}}},"label":"Archive"},\
        {"label":"Cancel","role":"cancel"}],"message":"This cannot be undone.","title":"Delete?"}
        """
    )
    #expect(try JSONDecoder().decode(AlertState<Action>.self, from: Data(json.utf8)) == alert)
  }

  @Test("Styled and joined text round-trips and reads back as plain text")
  func textCoding() throws {
    let text = TextState("Warning: ").bold() + TextState(verbatim: "gone").italic().kerning(1.5)
    #expect(String(state: text) == "Warning: gone")
    let decoded = try JSONDecoder().decode(TextState.self, from: JSONEncoder().encode(text))
    #expect(decoded == text)
    #expect(TextState("Hi") == "Hi")
    #expect(TextState("Hi") != TextState("Hi").bold())
  }

  @Test("A confirmation dialog keeps its title visibility, compares and round-trips")
  func dialog() throws {
    let dialog = ConfirmationDialogState<Action>(titleVisibility: .visible) {
      TextState("Share")
    } actions: {
      ButtonState(action: .confirm) { TextState("Copy link") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    }
    #expect(dialog.titleVisibility == .visible)
    #expect(dialog != ConfirmationDialogState(title: dialog.title, buttons: dialog.buttons))
    let decoded = try JSONDecoder().decode(
      ConfirmationDialogState<Action>.self, from: JSONEncoder().encode(dialog)
    )
    #expect(decoded == dialog)
  }

  @Test("map transforms every button's action")
  func mapping() {
    let mapped = deleteAlert(canArchive: true).map { action -> String? in
      action.map { "\($0)" }
    }
    #expect(mapped.buttons.map(\.action.action) == ["confirm", "archive(id: 1)", nil])
  }

  @Test("An alert dumps as it is written, text as quoted strings with styling markers")
  func dumping() {
    var alert = deleteAlert()
    alert.title = TextState("Delete").bold() + TextState("?")
    #expect(
      customDump(alert) == """
        AlertState<AlertStateTests.Action>(
          title: "**Delete**?",
          actions: [
            [0]: ButtonState<AlertStateTests.Action>(
              role: .destructive,
              action: .send(.confirm),
              label: "Delete"
            ),
            [1]: ButtonState<AlertStateTests.Action>(
              role: .cancel,
              label: "Cancel"
            )
          ],
          message: "This cannot be undone."
        )
        """
    )
  }
}
