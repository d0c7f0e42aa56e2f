import Foundation
import TraceJSON

/// The builder's compilable forms that need more than a flag: initializers, stacks, alerts and
/// errors as a generated test writes them.
extension SwiftValueBuilder {
  /// A struct written with its memberwise initializer, `Todo(id: UUID(0), title: "Milk")`, when
  /// the trace read its stored properties from its metadata and it encodes each of them, under
  /// its own name (a property wrapper's `_name` as `name`), and nothing else.
  ///
  /// Swift synthesizes that initializer for a struct that declares no `init` in its body, with
  /// the stored properties in declaration order, each labelled by its name (a wrapper's by its
  /// wrapped name and type). An empty struct is `Empty()`. `nil` when the trace cannot tell,
  /// so the caller decodes the value instead.
  func memberwise(_ json: JSONValue, type: String, members: [TypeSchema.Member]) -> SwiftValue? {
    guard let object = json.objectValue, let fields = schema.fields[type],
      SwiftValue.isTypeName(type)
    else { return nil }
    var arguments: [SwiftValue.Argument] = []
    // A feature's state often declares an `init` of its own, which hides the memberwise one:
    // it is assembled from its stored properties instead (`Architecture`'s `assemble`).
    let assembles = type.hasSuffix(".State")
    var assembled: [SwiftValue.Member] = []
    for field in fields {
      let label: String
      if members.contains(where: { $0.name == field.name }) {
        label = field.name
      } else if field.name.hasPrefix("_"),
        members.contains(where: { $0.name == String(field.name.dropFirst()) })
      {
        label = String(field.name.dropFirst())
      } else {
        // A stored property the encoding leaves out: no value to pass it.
        return nil
      }
      guard TypeName.isIdentifier(label), let member = members.first(where: { $0.name == label })
      else { return nil }
      let argument: SwiftValue
      if let recorded = object[label] {
        argument = value(recorded, type: member.type)
      } else if member.isOptional {
        argument = .atom("nil", .keyword)
      } else {
        return nil
      }
      arguments.append(.init(label: label, value: argument))
      if assembles {
        let valueType = Self.sourceName(ofValueIn: member)
        guard argument == .atom("nil", .keyword) || valueType != nil else { return nil }
        assembled.append(.init(label: label, value: argument, type: valueType ?? ""))
      }
    }
    // A member that is no stored property (a custom encoding) cannot be passed.
    guard object.keys.allSatisfy({ key in arguments.contains { $0.label == key } }) else {
      return nil
    }
    let name = TypeName.displayName(type)
    return assembles ? .code(.assembled(name, assembled)) : .call(name, arguments)
  }

  /// The Swift spelling of the type of a member's value (a wrapper's wrapped value), with
  /// module names dropped: `[Hike]`, `HikeList.Destination.State?`; `nil` when it has none.
  static func sourceName(ofValueIn member: TypeSchema.Member) -> String? {
    var type = member.type
    var optional = member.isOptional
    for wrapper in ["Architecture.BindingState<", "Architecture.PresentationState<"]
    where type.hasPrefix(wrapper) && type.hasSuffix(">") {
      type = String(type.dropFirst(wrapper.count).dropLast())
      if wrapper.hasSuffix("PresentationState<") { optional = true }
    }
    guard let name = sourceName(type) else { return nil }
    return optional && !name.hasSuffix("?") ? name + "?" : name
  }

  /// A recorded type name in Swift, module names dropped: `Swift.Array<M.Hike>` is `[Hike]`.
  static func sourceName(_ type: String) -> String? {
    guard let open = type.firstIndex(of: "<") else {
      let parts = type.split(separator: ".")
      let name = parts.count > 1 ? parts.dropFirst().joined(separator: ".") : type
      return SwiftValue.isTypeName(name) ? name : nil
    }
    guard type.hasSuffix(">") else { return nil }
    let base = String(type[..<open])
    var arguments: [String] = []
    var depth = 0
    var current = ""
    for character in type[type.index(after: open)..<type.index(before: type.endIndex)] {
      if character == "<" { depth += 1 } else if character == ">" { depth -= 1 }
      if character == ",", depth == 0 {
        arguments.append(current.trimmingCharacters(in: .whitespaces))
        current = ""
      } else {
        current.append(character)
      }
    }
    arguments.append(current.trimmingCharacters(in: .whitespaces))
    let names = arguments.compactMap(sourceName)
    guard names.count == arguments.count, let baseName = sourceName(base) else { return nil }
    switch (base, names.count) {
    case ("Swift.Optional", 1): return names[0] + "?"
    case ("Swift.Array", 1): return "[\(names[0])]"
    case ("Swift.Dictionary", 2): return "[\(names[0]): \(names[1])]"
    default: return baseName + "<" + names.joined(separator: ", ") + ">"
    }
  }

  /// An alert or a confirmation dialog as its builders write it; `nil` when the recorded value
  /// has a part the builders cannot say plainly (styled text, an animation), so that the
  /// caller decodes it instead.
  func alertCode(_ json: JSONValue, name: String, actionType: String) -> SwiftValue? {
    guard let fields = json.objectValue, let title = fields["title"]?.stringValue,
      let buttons = fields["actions"]?.arrayValue
    else { return nil }
    var opener = name
    if name == "ConfirmationDialogState" {
      guard let visibility = fields["titleVisibility"]?.stringValue,
        ["automatic", "hidden", "visible"].contains(visibility)
      else { return nil }
      if visibility != "automatic" { opener += "(titleVisibility: .\(visibility))" }
    }
    var written: [SwiftValue.Button] = []
    for button in buttons {
      guard let fields = button.objectValue, let label = fields["label"]?.stringValue else {
        return nil
      }
      let role = fields["role"]?.stringValue
      if let role, !["cancel", "destructive"].contains(role) { return nil }
      var action: SwiftValue?
      if let sent = fields["action"] {
        guard let send = sent.objectValue, send.count == 1, let sent = send["send"] else {
          return nil
        }
        action = value(sent, type: actionType)
      }
      written.append(.init(role: role, action: action, label: label))
    }
    var message: String?
    if let text = fields["message"] {
      guard let text = text.stringValue else { return nil }
      message = text
    }
    return .code(.alert(opener, title: title, buttons: written, message: message))
  }

  /// A task's error: itself when its recorded value is a case or an empty struct the test can
  /// write, so a reducer that branches on `error as? PaymentError` takes the same branch;
  /// otherwise a `RecordedError` with its texts, which `localizedDescription` shows.
  func failureCode(_ json: JSONValue) -> SwiftValue? {
    guard let fields = json.objectValue, let name = fields["type"]?.stringValue,
      let description = fields["description"]?.stringValue
    else { return nil }
    if let value = fields["value"], let mangled = fields["mangledType"]?.stringValue,
      isImportedAndVisible(mangledTypeName: mangled),
      let error = Self.errorExpression(name, value)
    {
      return .atom(error, .symbol)
    }
    let literal = SwiftValue.stringLiteral
    var arguments = ["typeName: \(literal(name))", "description: \(literal(description))"]
    for label in [
      "localizedDescription", "errorDescription", "failureReason", "recoverySuggestion",
      "helpAnchor",
    ] {
      if let text = fields[label]?.stringValue { arguments.append("\(label): \(literal(text))") }
    }
    return .atom("RecordedError(" + arguments.joined(separator: ", ") + ")", .symbol)
  }

  /// Whether the type with this mangled name belongs to a module the file imports (one of the
  /// trace's types comes from it) and is not `private` or local, so a test can name it.
  func isImportedAndVisible(mangledTypeName mangled: String) -> Bool {
    guard !mangled.contains("P33_"), !mangled.contains("$") else { return false }
    let digits = mangled.prefix { $0.isNumber }
    guard let length = Int(digits), length > 0,
      mangled.count >= digits.count + length
    else { return false }
    let module = String(mangled.dropFirst(digits.count).prefix(length))
    return schema.types.keys.contains { TypeName.module(of: $0) == module }
  }

  /// An error of type `name` written as Swift from its recorded value: `PaymentError()` for an
  /// empty struct, `PaymentError.declined` or `.declined(code: 51)` for a case whose values
  /// are scalars; `nil` for anything else.
  static func errorExpression(_ name: String, _ value: JSONValue) -> String? {
    guard SwiftValue.isTypeName(name), let object = value.objectValue else { return nil }
    if object.count == 0 { return name + "()" }
    guard object.count == 1, TypeName.isIdentifier(object[0].key),
      let arguments = object[0].value.objectValue
    else { return nil }
    var written: [String] = []
    for (label, argument) in arguments {
      let literal: String
      switch argument {
      case .string(let text): literal = SwiftValue.stringLiteral(text)
      case .bool(let flag): literal = "\(flag)"
      case .integer(let number): literal = "\(number)"
      case .unsignedInteger(let number): literal = "\(number)"
      default: return nil
      }
      let positional = label.hasPrefix("_") && Int(label.dropFirst()) != nil
      guard positional || TypeName.isIdentifier(label) else { return nil }
      written.append(positional ? literal : "\(label): \(literal)")
    }
    let caseName = name + "." + object[0].key
    return written.isEmpty ? caseName : caseName + "(" + written.joined(separator: ", ") + ")"
  }
}
