import TraceJSON

/// Turns a step's patch into the statements of a `TestStore` assertion closure:
/// `$0.count = 1`, `$0.todos[id: UUID(counting: 0)]?.title = "Milk"`, `$0.todos.remove(id: …)`.
///
/// Each operation becomes one mutation through Swift key paths, resolved against the state as
/// it is at that operation, so array positions become ids where the collection is identified.
/// A path it cannot resolve falls back to assigning the nearest member it can, decoded.
///
/// With ``absolute`` set, for a test store whose exhaustivity is off, every statement assigns a
/// value instead (see ``absoluteAssertion(for:state:renderer:)``).
struct StateAssertionWriter {
  let schema: TypeSchema
  let stateType: String
  /// Whether to write only assignments of values as the patch leaves them, never edits such as
  /// `append` or `move` that are relative to the state they are applied to.
  var absolute = false

  /// What one patch says, as statements.
  struct Assertion {
    var statements: [String] = []
    /// Paths whose recorded value was redacted, and which are therefore not asserted.
    var redactedPaths: [String] = []
  }

  /// The statements for `patch`, which is applied to `state` on the way.
  func assertion(
    for patch: JSONPatch, state: inout JSONValue, renderer: inout SwiftRenderer
  ) throws(JSONPatchError) -> Assertion {
    if absolute { return try absoluteAssertion(for: patch, state: &state, renderer: &renderer) }
    var assertion = Assertion()
    var statements: [Statement] = []
    var seen: Set<Statement> = []
    let final = try patch.apply(to: state)
    // Values assigned whole, as the patch leaves them: what is under them is said already.
    var assignedWhole: [[String]] = []
    for operation in patch.operations {
      if case .test = operation { continue }
      if let value = operation.value, value.containsUnknown {
        assertion.redactedPaths.append(operation.path.description)
      } else if !assignedWhole.contains(where: { operation.path.tokens.starts(with: $0) }) {
        for statement in self.statements(
          for: operation, in: state, final: final, assignedWhole: &assignedWhole,
          renderer: &renderer)
        where seen.insert(statement).inserted {
          statements.append(statement)
        }
      }
      // In place, and duplicates found by hashing: a copy of the state, or a search of the
      // statements, for each operation was quadratic in a long patch.
      try JSONPatch([operation]).apply(to: &state)
    }
    assertion.statements = Statement.render(statements)
    return assertion
  }

  /// One mutation, inside the `XCTModify` calls that reach into enum payloads, if any.
  struct Statement: Hashable {
    var enclosing: [String]
    var body: String

    /// The statements as code; neighbours inside the same `XCTModify` share one.
    static func render(_ statements: [Statement]) -> [String] {
      var lines: [String] = []
      var index = 0
      while index < statements.count {
        let enclosing = statements[index].enclosing
        var bodies: [String] = []
        while index < statements.count, statements[index].enclosing == enclosing {
          bodies.append(statements[index].body)
          index += 1
        }
        guard let opener = enclosing.first else {
          lines += bodies
          continue
        }
        let inner = render(
          bodies.map { Statement(enclosing: Array(enclosing.dropFirst()), body: $0) })
        if inner.count == 1, !inner[0].contains("\n") {
          lines.append("\(opener) \(inner[0]) }")
        } else {
          let indented = inner.joined(separator: "\n").split(separator: "\n").map { "  " + $0 }
          lines.append(([opener] + indented + ["}"]).joined(separator: "\n"))
        }
      }
      return lines
    }
  }

  private func statements(
    for operation: JSONPatch.Operation, in state: JSONValue, final: JSONValue,
    assignedWhole: inout [[String]], renderer: inout SwiftRenderer
  ) -> [Statement] {
    let tokens = operation.path.tokens
    if let pairs = flatDictionary(above: tokens, in: state, renderer: &renderer) {
      // A dictionary keyed by dates or structs is a flat list of keys and values: each key
      // that changed is asserted, `$0.log[key] = value`, not the whole list.
      assignedWhole.append(pairs.tokens)
      return pairs.statements(in: state, final: final, renderer: &renderer)
    }
    if endsInLet(tokens) {
      // A `let` cannot be assigned: the value holding it is assigned whole, built anew.
      return fallback(
        for: operation, final: final, assignedWhole: &assignedWhole, renderer: &renderer)
    }
    switch operation {
    case .replace where tokens.last == "id" && tokens.count > 1:
      // An `id` is usually a `let`: a new id means a new value, assigned whole.
      break
    case .replace(_, let value):
      if let target = target(tokens, in: state, renderer: &renderer) {
        return [target.assign(renderer.expression(value, type: target.type))]
      }
    case .add(_, let value):
      if let parent = target(Array(tokens.dropLast()), in: state, renderer: &renderer),
        let last = tokens.last, !isAssignedWhole(parent)
      {
        if let stack = stackElement(parent), let id = value.objectValue?["id"],
          let element = value.objectValue?["element"]
        {
          // `$0.path[id: 2] = …` pushes with exactly the recorded id.
          let code = "\(parent.code)[id: \(renderer.expression(id, type: stack.id))]"
          return [parent.statement("\(code) = \(renderer.expression(element, type: stack.element))")]
        }
        switch schema.description(of: TypeName.unwrappingOptional(parent.type ?? "")) {
        case .collection(let element)?:
          let count = operation.path.parent?.resolve(in: state)?.arrayValue?.count ?? 0
          let index = last == "-" ? count : JSONPointer.arrayIndex(last) ?? count
          let expression = renderer.expression(value, type: element)
          return index == count
            ? [parent.statement("\(parent.receiver).append(\(expression))")]
            : [parent.statement("\(parent.receiver).insert(\(expression), at: \(index))")]
        default:
          if let target = target(tokens, in: state, renderer: &renderer) {
            return [target.assign(renderer.expression(value, type: target.type))]
          }
        }
      }
    case .remove:
      if let parent = target(Array(tokens.dropLast()), in: state, renderer: &renderer),
        let last = tokens.last, !isAssignedWhole(parent)
      {
        if let stack = stackElement(parent),
          let id = operation.path.resolve(in: state)?.objectValue?["id"]
        {
          let code = "\(parent.code)[id: \(renderer.expression(id, type: stack.id))]"
          return [parent.statement("\(code) = nil")]
        }
        switch schema.description(of: TypeName.unwrappingOptional(parent.type ?? "")) {
        case .collection?:
          guard let index = JSONPointer.arrayIndex(last) else { break }
          if let id = identity(at: operation.path, in: state, parent: parent, renderer: &renderer) {
            return [parent.statement("\(parent.receiver).remove(id: \(id))")]
          }
          return [parent.statement("\(parent.receiver).remove(at: \(index))")]
        default:
          if let target = target(tokens, in: state, renderer: &renderer) {
            return [target.assign("nil")]
          }
        }
      }
    case .move(let from, let path):
      if from.parent == path.parent, let parentPath = path.parent,
        let parent = target(parentPath.tokens, in: state, renderer: &renderer),
        let source = from.lastToken.flatMap(JSONPointer.arrayIndex),
        let destination = path.lastToken.flatMap(JSONPointer.arrayIndex)
      {
        if TypeName.shortName(parent.type ?? "") == "IdentifiedArray" {
          // JSON Patch inserts after removing; `move(fromOffsets:toOffset:)` counts before.
          let offset = destination > source ? destination + 1 : destination
          return [parent.statement("\(parent.receiver).move(fromOffsets: [\(source)], toOffset: \(offset))")]
        }
        if !parent.isOptional {
          return [
            parent.statement(
              "\(parent.code).insert(\(parent.code).remove(at: \(source)), at: \(destination))")
          ]
        }
      }
    case .copy, .test, .splice:
      // A splice assigns the whole string below, as the patch leaves it.
      break
    }
    return fallback(
      for: operation, final: final, assignedWhole: &assignedWhole, renderer: &renderer)
  }

  /// Whether `tokens` name a `let` member of a struct, as its metadata says (read at record
  /// time into the trace's `fields`).
  private func endsInLet(_ tokens: [String]) -> Bool {
    guard let last = tokens.last,
      let parent = schema.type(at: Array(tokens.dropLast()), in: stateType)
    else { return false }
    return schema.fields[TypeName.unwrappingOptional(parent)]?.contains {
      $0.isLet && $0.name == last
    } == true
  }

  /// Assigns, whole, the deepest value above the operation's path that Swift can name, as the
  /// whole patch leaves it: an enum that changed case, a set, a `Duration`, a struct with a new
  /// id. Several operations under one such value give one assignment.
  private func fallback(
    for operation: JSONPatch.Operation, final: JSONValue, assignedWhole: inout [[String]],
    renderer: inout SwiftRenderer
  ) -> [Statement] {
    var tokens = Array(operation.path.tokens.dropLast())
    if case .replace = operation, operation.path.tokens.last != "id",
      !endsInLet(operation.path.tokens)
    {
      tokens = operation.path.tokens
    }
    while !tokens.isEmpty {
      if let target = target(tokens, in: final, renderer: &renderer) {
        assignedWhole.append(tokens)
        guard let value = JSONPointer(tokens: tokens).resolve(in: final) else {
          return [target.assign("nil")]
        }
        return [target.assign(renderer.expression(value, type: target.type))]
      }
      tokens.removeLast()
    }
    // The whole state, as the patch leaves it, says what every later operation does.
    assignedWhole.append([])
    let whole = renderer.expression(final, type: stateType)
    return [Statement(enclosing: [], body: "$0 = \(whole)")]
  }

  /// Whether the target's value is assigned whole rather than changed inside.
  /// A dictionary whose keys are not names (dates, structs), found at or above `tokens`: its
  /// JSON is a flat list `[key, value, key, value, …]`.
  struct FlatDictionary {
    var tokens: [String]
    var target: Target
    var key: String
    var value: String

    /// `target[key] = value` for each key the patch added or changed, `= nil` for each it
    /// removed.
    func statements(
      in state: JSONValue, final: JSONValue, renderer: inout SwiftRenderer
    ) -> [Statement] {
      let pointer = JSONPointer(tokens: tokens)
      func pairs(_ json: JSONValue?) -> [(JSONValue, JSONValue)] {
        guard let flat = json?.arrayValue, flat.count % 2 == 0 else { return [] }
        return stride(from: 0, to: flat.count, by: 2).map { (flat[$0], flat[$0 + 1]) }
      }
      let before = pairs(pointer.resolve(in: state))
      let after = pairs(pointer.resolve(in: final))
      var statements: [Statement] = []
      let code = target.code
      for (key, value) in after where !before.contains(where: { $0.0 == key && $0.1 == value }) {
        let subscripted = "\(code)[\(renderer.expression(key, type: self.key))]"
        statements.append(
          target.statement("\(subscripted) = \(renderer.expression(value, type: self.value))"))
      }
      for (key, _) in before where !after.contains(where: { $0.0 == key }) {
        statements.append(
          target.statement("\(code)[\(renderer.expression(key, type: self.key))] = nil"))
      }
      return statements
    }
  }

  /// The flat-list dictionary at or above `tokens`, if the path runs through one.
  private func flatDictionary(
    above tokens: [String], in state: JSONValue, renderer: inout SwiftRenderer
  ) -> FlatDictionary? {
    for length in stride(from: tokens.count, through: 1, by: -1) {
      let prefix = Array(tokens.prefix(length))
      guard JSONPointer(tokens: prefix).resolve(in: state)?.arrayValue != nil,
        let target = target(prefix, in: state, renderer: &renderer),
        target.enclosing.isEmpty, !target.isOptional,
        let type = target.type.map(TypeName.unwrappingOptional),
        TypeName.shortName(type) == "Dictionary", !TypeWalk.isKeyedByName(type),
        let arguments = TypeName.dictionaryArguments(of: type)
      else { continue }
      return FlatDictionary(
        tokens: prefix, target: target, key: arguments.key, value: arguments.value)
    }
    return nil
  }

  private func isAssignedWhole(_ target: Target) -> Bool {
    target.type.map(SwiftRenderer.isAssignedWhole) ?? false
  }

  /// A Swift l-value for a JSON path, and the type of the value there.
  ///
  /// A path into the payload of an enum case is reached through `XCTModify`, as a person
  /// writes it: `XCTModify(&$0.destination, case: /Destination.State.edit) { $0.title = "x" }`.
  /// `enclosing` holds those openers, outermost first; `code` is the l-value inside them.
  struct Target {
    var code: String
    var type: String?
    var enclosing: [String] = []
    /// Whether `code` ends in a subscript that returns an optional (a dictionary's, or
    /// `[id:]`), which a method call on it must chain through.
    var isOptional = false

    /// `code` as the receiver of a method call: `$0.audit["Q1"]?` for `.append(…)`.
    var receiver: String { isOptional ? code + "?" : code }

    /// `body`, a statement on `code`, inside the enclosing `XCTModify` calls.
    func statement(_ body: String) -> Statement { Statement(enclosing: enclosing, body: body) }

    /// The statement assigning `value` to the target.
    func assign(_ value: String) -> Statement { statement("\(code) = \(value)") }
  }

  /// A Swift l-value for the JSON path `tokens`, and the type of the value there.
  func target(
    _ tokens: [String], in state: JSONValue, renderer: inout SwiftRenderer
  ) -> Target? {
    var code = "$0"
    var type: String? = stateType
    var value: JSONValue? = state
    var enclosing: [String] = []
    var position = 0
    var isOptional = false
    while position < tokens.count {
      let token = tokens[position]
      defer { position += 1 }
      isOptional = false
      let isLast = position == tokens.count - 1
      guard let current = type.map(TypeName.unwrappingOptional),
        !SwiftRenderer.isAssignedWhole(current)
      else { return nil }
      switch schema.description(of: current) {
      case .enumeration(let cases)?:
        // `/case/_0/…`: into the payload of a case with one unlabeled value, not the case itself.
        guard position + 1 < tokens.count, tokens[position + 1] == "_0",
          let known = cases.first(where: { $0.name == token }), known.payload.count == 1,
          known.payload[0].name == "_0", TypeName.isIdentifier(token)
        else { return nil }
        if code.hasSuffix("?") { code.removeLast() }
        // An optional chain cannot be passed `inout`: the value is there, so unwrapped.
        let root = code.replacingOccurrences(of: "?.", with: "!.")
          .replacingOccurrences(of: "?[", with: "![")
        enclosing.append(
          "XCTModify(&\(root), case: /\(TypeName.displayName(current)).\(token)) {")
        code = "$0"
        type = known.payload[0].type
        value = value?.objectValue?[token]?.objectValue?["_0"]
        position += 1
      case .structure(let members)?:
        guard TypeName.isIdentifier(token),
          let member = members.first(where: { $0.name == token })
        else { return nil }
        code += "." + SwiftValue.escapedMember(token)
        if member.isOptional, !isLast { code += "?" }
        type = member.type
        // A `@BindingState var name` is assigned through its wrapped value: `$0.name = …`.
        if TypeName.shortName(member.type) == "BindingState", TypeName.module(
          of: member.type) == "Architecture"
        {
          type = TypeName.genericArgument(of: member.type)
        }
        value = value?.objectValue?[token]
      case .collection?
      where TypeName.isArchitecture(current, named: "StackState"):
        // `/path/1/element/…` is the element with the id recorded at position 1.
        guard let index = JSONPointer.arrayIndex(token),
          let entry = value?.arrayValue.flatMap({ index < $0.count ? $0[index] : nil }),
          let id = entry.objectValue?["id"], !isLast, tokens[position + 1] == "element",
          let stack = stackElement(Target(code: code, type: current))
        else { return nil }
        code += "[id: \(renderer.expression(id, type: stack.id))]"
        type = stack.element
        value = entry.objectValue?["element"]
        position += 1
        // The element is optional through `subscript(id:)`: chain on, or modify it in place.
        if position < tokens.count - 1 { code += "?" }
      case .collection(let element)?:
        guard let index = JSONPointer.arrayIndex(token) else { return nil }
        let parent = Target(code: code, type: current)
        let elementPath = JSONPointer(tokens: Array(tokens[...position]))
        if let id = identity(at: elementPath, in: state, parent: parent, renderer: &renderer) {
          code += "[id: \(id)]"
          if !isLast { code += "?" } else { isOptional = true }
        } else {
          code += "[\(index)]"
        }
        type = element
        value = value?.arrayValue.flatMap { index < $0.count ? $0[index] : nil }
      case .dictionary(let valueType)?:
        if let key = TypeName.dictionaryArguments(of: current)?.key,
          TypeName.isInteger(key)
        {
          guard let number = Int64(token) else { return nil }
          code += "[\(number)]"
        } else {
          code += "[\(SwiftValue.stringLiteral(token))]"
        }
        if !isLast { code += "?" } else { isOptional = true }
        type = valueType
        value = value?.objectValue?[token]
      default:
        return nil
      }
    }
    return Target(code: code, type: type, enclosing: enclosing, isOptional: isOptional)
  }

  /// The id and element types of a `StackState` target, whose entries are `{"id","element"}`.
  private func stackElement(_ target: Target) -> (id: String, element: String)? {
    guard let type = target.type.map(TypeName.unwrappingOptional),
      TypeName.isArchitecture(type, named: "StackState"),
      let element = TypeName.genericArgument(of: type)
    else { return nil }
    return ("Architecture.StackElementID", element)
  }

  /// The id of the element at `path` as a Swift expression, when the collection is an
  /// identified array (which `subscript(id:)` and `remove(id:)` work on).
  private func identity(
    at path: JSONPointer, in state: JSONValue, parent: Target,
    renderer: inout SwiftRenderer
  ) -> String? {
    guard let type = parent.type, TypeName.shortName(type) == "IdentifiedArray",
      case .collection(let element)? = schema.description(of: type),
      case .structure(let members)? = schema.description(of: element),
      let idType = members.first(where: { $0.name == "id" })?.type,
      let id = path.resolve(in: state)?.objectValue?["id"]
    else { return nil }
    return renderer.expression(id, type: idType)
  }
}

extension JSONValue {
  /// The JSON Pointers of the redacted values this value holds, with patterns for list
  /// elements (`/todos/*/note`), each once.
  func redactedPaths(under path: String = "") -> [String] {
    switch self {
    case .string:
      return self == Redaction.placeholder ? [path] : []
    case .array(let elements):
      var paths: [String] = []
      for element in elements {
        for found in element.redactedPaths(under: path + "/*") where !paths.contains(found) {
          paths.append(found)
        }
      }
      return paths
    case .object(let object):
      return object.flatMap { key, value in
        value.redactedPaths(under: path + "/" + JSONPointer.escape(key))
      }
    default:
      return []
    }
  }

  /// Whether the value is, or holds, the string a redaction rule writes.
  var containsRedaction: Bool {
    switch self {
    case .string: self == Redaction.placeholder
    case .array(let elements): elements.contains { $0.containsRedaction }
    case .object(let object): object.values.contains { $0.containsRedaction }
    default: false
    }
  }
}
