import TraceJSON

extension SwiftRenderer {
  /// An alert or a confirmation dialog written with its builders, as a person writes one:
  ///
  /// ```swift
  /// AlertState {
  ///   TextState("Delete “Dune”?")
  /// } actions: {
  ///   ButtonState(role: .destructive, action: .confirmDeletion) {
  ///     TextState("Delete")
  ///   }
  /// }
  /// ```
  ///
  /// `nil` when the recorded value has a part the builders cannot say plainly (styled text,
  /// an animation), so that the caller decodes it instead.
  mutating func alertLike(_ json: JSONValue, type: String, indent: Int) -> String? {
    let isAlert = TypeName.isArchitecture(type, named: "AlertState")
    guard isAlert || TypeName.isArchitecture(type, named: "ConfirmationDialogState"),
      let actionType = TypeName.genericArgument(of: type),
      let fields = json.objectValue,
      let title = fields["title"]?.stringValue,
      let buttons = fields["actions"]?.arrayValue
    else { return nil }
    let pad = String(repeating: "  ", count: indent)
    var opener = isAlert ? "AlertState" : "ConfirmationDialogState"
    if !isAlert {
      guard let visibility = fields["titleVisibility"]?.stringValue,
        ["automatic", "hidden", "visible"].contains(visibility)
      else { return nil }
      if visibility != "automatic" { opener += "(titleVisibility: .\(visibility))" }
    }
    var lines = ["\(opener) {", "\(pad)  TextState(\(stringLiteral(title)))", "\(pad)} actions: {"]
    for button in buttons {
      guard let button = self.button(button, actionType: actionType, indent: indent + 1) else {
        return nil
      }
      lines.append(button)
    }
    if let message = fields["message"] {
      guard let text = message.stringValue else { return nil }
      lines += ["\(pad)} message: {", "\(pad)  TextState(\(stringLiteral(text)))"]
    }
    lines.append("\(pad)}")
    return lines.joined(separator: "\n")
  }

  private mutating func button(_ json: JSONValue, actionType: String, indent: Int) -> String? {
    guard let fields = json.objectValue, let label = fields["label"]?.stringValue else {
      return nil
    }
    var arguments: [String] = []
    if let role = fields["role"]?.stringValue {
      guard ["cancel", "destructive"].contains(role) else { return nil }
      arguments.append("role: .\(role)")
    }
    if let action = fields["action"] {
      guard let send = action.objectValue, send.count == 1, let value = send["send"] else {
        return nil
      }
      arguments.append("action: " + expression(value, type: actionType, indent: indent))
    }
    let pad = String(repeating: "  ", count: indent)
    let call = arguments.isEmpty ? "ButtonState" : "ButtonState(\(arguments.joined(separator: ", ")))"
    let text = "TextState(\(stringLiteral(label)))"
    // One line when it fits, as `ButtonState(role: .cancel) { TextState("Not now") }`.
    if pad.count + call.count + text.count + 6 <= 92, !call.contains("\n") {
      return "\(pad)\(call) { \(text) }"
    }
    return "\(pad)\(call) {\n\(pad)  \(text)\n\(pad)}"
  }
}
