import TraceJSON

extension SwiftValueBuilder {
  /// A value of one of `Architecture`'s own types whose encoding is not its Swift shape, as a
  /// TCA developer writes or reads it; `nil` for any other type or JSON.
  ///
  /// - A binding action reads `.set(\.$draft, "hi")`.
  /// - An alert reads `AlertState(title: "Delete?", actions: [ButtonState(role: .destructive,
  ///   action: .confirm, label: "Delete")], message: "…")`, a dialog likewise.
  /// - A stack reads `[#0: .chat(…), #1: …]`, its ids as `TestStore` failures print them.
  /// - A task result reads `.success(…)` or `.failure(ErrorType)`.
  ///
  /// To compile, an alert or a dialog is written with its builders, a stack as a closure that
  /// keeps its ids, a failure as its error when the test can write it (``errorValue(_:)``).
  func architectureValue(_ json: JSONValue, type: String) -> SwiftValue? {
    guard type.hasPrefix("Architecture.") else { return nil }
    if type.hasSuffix(">.Entry"), !compilable,
      case let stack = String(type.dropLast(".Entry".count)),
      TypeName.isArchitectureGeneric(stack, named: "StackState"),
      let element = TypeName.genericArgument(of: stack)
    {
      // One entry, added or removed where a diff names it by position: `[#2: .detail(…)]`.
      return self.stack(.array([json]), type: stack, elementType: element)
    }
    guard let argument = TypeName.genericArgument(of: type) else { return nil }
    if TypeName.isArchitectureGeneric(type, named: "BindingAction") {
      return bindingAction(json, root: argument)
    }
    for name in ["AlertState", "ConfirmationDialogState"]
    where TypeName.isArchitectureGeneric(type, named: name) {
      return compilable
        ? alertCode(json, name: name, actionType: argument)
        : alert(json, name: name, actionType: argument)
    }
    if !compilable, TypeName.isArchitectureGeneric(type, named: "ButtonState") {
      return button(json, actionType: argument)
    }
    if TypeName.isArchitectureGeneric(type, named: "StackState") {
      let stack = stack(json, type: type, elementType: argument)
      return compilable ? stack ?? opaque(json, type: nil) : stack
    }
    if TypeName.isArchitectureGeneric(type, named: "TaskResult") {
      return taskResult(json, successType: argument)
    }
    return nil
  }

  /// `{"set":{"keyPath":"$draft","value":…}}` as `.set(\.$draft, …)`, the value by the type of
  /// the `@BindingState` member it writes.
  private func bindingAction(_ json: JSONValue, root: String) -> SwiftValue? {
    guard let fields = json.objectValue?["set"]?.objectValue, fields.count == 2,
      let keyPath = fields["keyPath"]?.stringValue, TypeName.isBindingKeyPath(keyPath),
      let newValue = fields["value"]
    else { return nil }
    let valueType = schema.bindingValueType(keyPath, in: root)
    return .call(
      ".set",
      [
        .init(label: nil, value: .atom("\\." + keyPath, .symbol)),
        .init(label: nil, value: value(newValue, type: valueType)),
      ])
  }

  /// An alert or a dialog as its initializer with labelled parts; buttons by
  /// ``button(_:actionType:)``, an absent or empty list of actions left out.
  private func alert(_ json: JSONValue, name: String, actionType: String) -> SwiftValue? {
    guard let fields = json.objectValue, let title = fields["title"] else { return nil }
    var arguments: [SwiftValue.Argument] = []
    if let visibility = fields["titleVisibility"]?.stringValue, visibility != "automatic" {
      arguments.append(.init(label: "titleVisibility", value: .atom("." + visibility, .symbol)))
    }
    arguments.append(.init(label: "title", value: text(title)))
    if let buttons = fields["actions"]?.arrayValue, !buttons.isEmpty {
      let shown = buttons.map { button($0, actionType: actionType) ?? untyped($0) }
      arguments.append(
        .init(label: "actions", value: .list(open: "[", elements: shown, close: "]")))
    }
    if let message = fields["message"] {
      arguments.append(.init(label: "message", value: text(message)))
    }
    return .call(name, arguments)
  }

  /// `ButtonState(role: .destructive, action: .confirm, label: "Delete")`; an animated action
  /// reads `.send(.confirm, animation: …)`.
  private func button(_ json: JSONValue, actionType: String) -> SwiftValue? {
    guard let fields = json.objectValue, let label = fields["label"] else { return nil }
    var arguments: [SwiftValue.Argument] = []
    if let role = fields["role"]?.stringValue {
      arguments.append(.init(label: "role", value: .atom("." + role, .symbol)))
    }
    if let action = fields["action"]?.objectValue {
      let sent = action["send"].map { value($0, type: actionType) } ?? .atom("nil", .keyword)
      if let animation = action["animation"] {
        let send = SwiftValue.call(
          ".send",
          [.init(label: nil, value: sent), .init(label: "animation", value: untyped(animation))])
        arguments.append(.init(label: "action", value: send))
      } else {
        arguments.append(.init(label: "action", value: sent))
      }
    }
    arguments.append(.init(label: "label", value: text(label)))
    return .call("ButtonState", arguments)
  }

  /// A `TextState`: plain text as its string, styled text as its JSON.
  private func text(_ json: JSONValue) -> SwiftValue {
    json.stringValue.map { .atom(JSONValue.string($0).jsonString, .string) } ?? untyped(json)
  }

  /// `[{"id":0,"element":…}, …]` as `[#0: …, #1: …]`; to compile, as a closure that keeps the
  /// ids, which `StackState([…])` would number afresh (``SwiftValue/Code/stack(_:_:)``).
  private func stack(_ json: JSONValue, type: String, elementType: String) -> SwiftValue? {
    guard let entries = json.arrayValue, !compilable || SwiftValue.isTypeName(type) else {
      return nil
    }
    var shown: [SwiftValue.Entry] = []
    for entry in entries {
      guard let fields = entry.objectValue, let id = fields["id"]?.int64Value,
        id >= 0 || !compilable, let element = fields["element"]
      else { return nil }
      let key = SwiftValue.atom(compilable ? "\(id)" : "#\(id)", compilable ? .number : .symbol)
      shown.append(.init(key: key, value: value(element, type: elementType)))
    }
    return compilable ? .code(.stack(TypeName.displayName(type), shown)) : .dictionary(shown)
  }

  /// `.success(value)`, or `.failure(ErrorType)` for the recorded error.
  private func taskResult(_ json: JSONValue, successType: String) -> SwiftValue? {
    guard let object = json.objectValue, object.count == 1 else { return nil }
    switch object[0].key {
    case "success":
      let success = value(object[0].value, type: successType)
      return .call(".success", [.init(label: nil, value: success)])
    case "failure":
      guard let errorType = object[0].value.objectValue?["type"]?.stringValue else { return nil }
      let error = compilable ? failureCode(object[0].value) : .atom(errorType, .symbol)
      return error.map { .call(".failure", [.init(label: nil, value: $0)]) }
    default:
      return nil
    }
  }
}
