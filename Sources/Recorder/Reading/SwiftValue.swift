import TraceJSON

/// A recorded value as a Swift developer writes it, ready to be laid out on one line or many.
///
/// Built from the trace's JSON and its ``TypeSchema`` by ``SwiftValue/init(_:type:schema:)``:
/// a `Duration` is `.seconds(6.93)`, a `Date` ISO 8601, a counting `UUID` `UUID(7)`, a
/// dictionary `[13: 2]` whatever its keys' encoding, a set `Set([…])`, an enum `.case(payload)`
/// and a struct `Name(member: …)`. What the schema does not describe is shown as its JSON.
/// Built in the compilable mode, for a generated test, it is Swift that compiles instead
/// (`SwiftRenderer`; ``Code`` holds the forms only compiling needs), written by ``source(indent:inlineLimit:)``.
///
/// ```swift
/// let value = SwiftValue(state, type: header.stateType, schema: trace.typeSchema())
/// value.text  // Shop.State(cart: Cart(quantities: [13: 2]), timer: .seconds(6.93), …)
/// ```
package indirect enum SwiftValue: Equatable, Sendable {
  /// A literal or a name that is shown whole: `3`, `"milk"`, `nil`, `.seconds(6.93)`, `UUID(7)`.
  case atom(String, Atom)
  /// `[a, b]`, or `Set([a, b])`: elements between an opening and a closing text.
  case list(open: String, elements: [SwiftValue], close: String)
  /// `[key: value, …]`; `[:]` when empty.
  case dictionary([Entry])
  /// `Name(label: value, …)` or `.case(value)`; a call without arguments is only its name.
  case call(String, [Argument])
  /// A form only a generated test has, which the builder makes in its compilable mode.
  case code(Code)

  /// What an atom is, for colour.
  package enum Atom: Equatable, Sendable {
    /// `3`, `2.5`, `.nan`.
    case number
    /// A string literal, quoted.
    case string
    /// `true`, `false`, `nil`.
    case keyword
    /// Anything else written whole: `.seconds(6.93)`, `UUID(7)`, a date, an enum case.
    case symbol
  }

  /// One entry of a dictionary.
  package struct Entry: Equatable, Sendable {
    package var key: SwiftValue
    package var value: SwiftValue
  }

  /// One argument of a call; `label` is `nil` for an unlabelled payload value.
  package struct Argument: Equatable, Sendable {
    package var label: String?
    package var value: SwiftValue
  }

  /// What compiling needs and reading does not, laid out by ``source(indent:inlineLimit:)``.
  package enum Code: Equatable, Sendable {
    /// `try decoded(#"…"#)`: a value no literal writes, as its JSON text; `undecodable` names
    /// its type when the trace says it is not `Decodable`, so the file can say why it fails.
    case decoded(json: String, undecodable: String?)
    /// A stack that keeps its recorded ids, which `StackState([…])` would number afresh:
    /// `{ var stack = Name(); stack[id: 0] = …; return stack }()`; the keys are the ids.
    case stack(String, [Entry])
    /// A feature's state, whose own `init` may hide the memberwise one:
    /// `assemble(Name.State.self, ["label": value as Type, …])`.
    case assembled(String, [Member])
    /// An alert or a dialog written with its builders: `AlertState { TextState(…) } actions: …`.
    case alert(String, title: String, buttons: [Button], message: String?)
  }

  /// One stored property of an assembled state, with the type its value is written `as`.
  package struct Member: Equatable, Sendable {
    package var label: String
    package var value: SwiftValue
    package var type: String
  }

  /// One button of an alert's builder: `ButtonState(role: .cancel, action: …) { TextState(…) }`.
  package struct Button: Equatable, Sendable {
    package var role: String?
    package var action: SwiftValue?
    package var label: String
  }
}

extension SwiftValue.Argument {
  /// `label: value`, or the value alone.
  package var text: String { (label.map { $0 + ": " } ?? "") + value.text }
}

extension SwiftValue {
  /// `json`, a value of the Swift type `type` (`nil` when unknown), as Swift.
  ///
  /// Random UUIDs are shortened to the fewest leading digits (at least 8) that tell apart every
  /// UUID in the value and every one `distinguishing` gives (those of the state the value is
  /// in, say), so that the short form names one UUID where it is read back.
  package init(
    _ json: JSONValue, type: String?, schema: TypeSchema,
    distinguishing: () -> Set<String> = { [] }
  ) {
    let built = SwiftValueBuilder(schema: schema).value(json, type: type)
    self = built.shorteningUUIDs(distinguishing)
  }

  /// The strings in `values` that have a UUID's shape, for ``init(_:type:schema:distinguishing:)``.
  package static func uuids(in values: [JSONValue]) -> Set<String> {
    var found: Set<String> = []
    func collect(_ value: JSONValue) {
      switch value {
      case .string(let text): if PrintedForm.isUUIDText(text) { found.insert(text) }
      case .array(let elements): elements.forEach(collect)
      case .object(let object):
        for (key, member) in object {
          if PrintedForm.isUUIDText(key) { found.insert(key) }
          collect(member)
        }
      default: break
      }
    }
    values.forEach(collect)
    return found
  }
}

/// Turns JSON into a ``SwiftValue`` by the types the schema and the type names give.
struct SwiftValueBuilder {
  let schema: TypeSchema
  /// Whether the value is built to compile, for a generated test: Swift's literals and
  /// initializers (`Date(timeIntervalSinceReferenceDate:)`, a struct's memberwise `init`), and
  /// `decoded(_:)` for what has none, rather than the forms people read.
  var compilable = false

  func value(_ json: JSONValue, type: String?) -> SwiftValue {
    if json.isNull, type != nil || !compilable { return .atom("nil", .keyword) }
    guard let type = type.map(TypeName.unwrappingValue) else { return opaque(json, type: nil) }
    let scalar =
      compilable
      ? SwiftValueScalars.code(json, type: type) : SwiftValueScalars.scalar(json, type: type)
    if let scalar { return scalar }
    if let value = architectureValue(json, type: type) { return value }
    let short = TypeName.shortName(type)
    // A string-keyed dictionary compiles as the schema describes it, below.
    if short == "Dictionary", let (key, valueType) = TypeName.dictionaryArguments(of: type),
      !compilable || json.objectValue == nil || TypeName.isInteger(key),
      let entries = SwiftValueScalars.entries(json, keyType: key)
    {
      return .dictionary(
        entries.map {
          .init(key: value($0.key, type: key), value: value($0.value, type: valueType))
        }
      )
    }
    if ["Set", "Array", "ContiguousArray"].contains(short), TypeName.module(of: type) == "Swift",
      let elements = json.arrayValue
    {
      let element = TypeName.genericArgument(of: type)
      let isSet = short == "Set" && !compilable
      return .list(
        open: isSet ? "Set([" : "[", elements: elements.map { value($0, type: element) },
        close: isSet ? "])" : "]")
    }
    switch schema.description(of: type) {
    case .structure(let members)?:
      if compilable {
        if let value = memberwise(json, type: type, members: members) { return value }
        break
      }
      guard let object = json.objectValue else { break }
      var arguments: [SwiftValue.Argument] = members.compactMap { member in
        if let member_ = object[member.name] {
          return .init(label: member.name, value: value(member_, type: member.type))
        }
        return member.isOptional ? .init(label: member.name, value: .atom("nil", .keyword)) : nil
      }
      for (key, member) in object where !members.contains(where: { $0.name == key }) {
        arguments.append(.init(label: key, value: untyped(member)))
      }
      return .call(TypeName.displayName(type), arguments)
    case .enumeration(let cases)?:
      if let value = enumCase(json, cases: cases) { return value }
    case .rawEnumeration(let cases)?:
      let raw = json.jsonString
      if let name = cases.first(where: { $0.raw == raw })?.name,
        !compilable || TypeName.isIdentifier(name)
      {
        return .atom("." + (compilable ? SwiftValue.escapedMember(name) : name), .symbol)
      }
    case .collection(let element)?:
      if let elements = json.arrayValue {
        return .list(open: "[", elements: elements.map { value($0, type: element) }, close: "]")
      }
    case .dictionary(let valueType)?:
      if let object = json.objectValue {
        return .dictionary(
          object.map { .init(key: string($0.key), value: value($0.value, type: valueType)) })
      }
    case .literal(.integer)?:
      if case .integer = json { return .atom(json.jsonString, .number) }
      if case .unsignedInteger = json { return .atom(json.jsonString, .number) }
    case .literal(.string)?:
      if let text = json.stringValue { return string(text) }
    case nil:
      break
    }
    // A struct without stored members encodes as `{}`: it is written as its initializer.
    if !compilable, json.objectValue?.isEmpty == true, short != "Dictionary" {
      return .call(TypeName.displayName(type), [])
    }
    return opaque(json, type: type)
  }

  /// `.case(label: value, value)`: to compile, only a case the schema knows, its labels in the
  /// order it declares them (an absent optional `nil`), its name back-quoted if a keyword.
  private func enumCase(
    _ json: JSONValue, cases: [(name: String, payload: [TypeSchema.Member])]
  ) -> SwiftValue? {
    guard let object = json.objectValue, object.count == 1 else { return nil }
    let (name, payloadJSON) = object[0]
    // A case whose whole payload a rule hid: the placeholder stands for its arguments.
    if !compilable, payloadJSON == Redaction.placeholder {
      let hidden = SwiftValue.atom(Redaction.placeholder.jsonString, .string)
      return .call("." + name, [.init(label: nil, value: hidden)])
    }
    guard let payload = payloadJSON.objectValue else { return nil }
    let known = cases.first { $0.name == name }
    guard compilable else {
      let declared = known?.payload ?? []
      return .call(
        "." + name,
        payload.map { label, json in
          SwiftValue.Argument(
            label: SwiftValueScalars.isPositional(label) ? nil : label,
            value: value(json, type: declared.first { $0.name == label }?.type))
        })
    }
    guard let known, TypeName.isIdentifier(name) else { return nil }
    var labels = known.payload.map(\.name)
    labels += payload.keys.filter { !labels.contains($0) }
    var arguments: [SwiftValue.Argument] = []
    for label in labels {
      let member = known.payload.first { $0.name == label }
      let argument: SwiftValue
      if let json = payload[label] {
        argument = value(json, type: member?.type)
      } else if member?.isOptional == true {
        argument = .atom("nil", .keyword)
      } else {
        return nil
      }
      // A label is pasted into the source: one that is not an identifier cannot be written.
      let positional = SwiftValueScalars.isPositional(label)
      guard positional || TypeName.isIdentifier(label) else { return nil }
      arguments.append(.init(label: positional ? nil : label, value: argument))
    }
    return .call("." + SwiftValue.escapedMember(name), arguments)
  }

  /// A string as a literal: to compile, with every control character escaped.
  func string(_ text: String) -> SwiftValue {
    .atom(compilable ? SwiftValue.stringLiteral(text) : JSONValue.string(text).jsonString, .string)
  }

  /// A value the types do not write: shown as its JSON, or, to compile, decoded from it.
  func opaque(_ json: JSONValue, type: String?) -> SwiftValue {
    guard compilable else { return untyped(json) }
    // A trace that read any type's facts says which types are `Decodable`.
    var undecodable: String?
    if let type, !schema.fields.isEmpty || !schema.decodableTypes.isEmpty,
      schema.description(of: type) != nil || schema.fields[type] != nil,
      !schema.decodableTypes.contains(type)
    {
      undecodable = type
    }
    return .code(
      .decoded(
        json: SwiftValue.escapingBidiControls(inJSON: json.jsonString), undecodable: undecodable))
  }

  /// A value the types do not describe, as its JSON: objects as `["key": value]`.
  func untyped(_ json: JSONValue) -> SwiftValue {
    switch json {
    case .null: .atom("nil", .keyword)
    case .bool: .atom(json.jsonString, .keyword)
    case .integer, .unsignedInteger, .double: .atom(json.jsonString, .number)
    case .string: .atom(json.jsonString, .string)
    case .array(let elements): .list(open: "[", elements: elements.map(untyped), close: "]")
    case .object(let object):
      .dictionary(
        object.map {
          .init(key: .atom(JSONValue.string($0.key).jsonString, .string), value: untyped($0.value))
        })
    }
  }
}

extension SwiftValue {
  /// Every random UUID cut to the fewest leading hex digits, 8 or more, that no other UUID in
  /// the value shares: `UUID(3F2504E0…)`.
  fileprivate func shorteningUUIDs(_ distinguishing: () -> Set<String>) -> SwiftValue {
    var all: Set<String> = []
    collectUUIDs(into: &all)
    guard !all.isEmpty else { return self }
    let shownUUIDs = all
    all.formUnion(distinguishing())
    let sorted = all.sorted()
    var shown: [String: String] = [:]
    for (position, uuid) in sorted.enumerated() where shownUUIDs.contains(uuid) {
      // Sorted, a UUID shares the most leading digits with a neighbour.
      let neighbours = [position - 1, position + 1].filter(sorted.indices.contains).map {
        sorted[$0]
      }
      let shared = neighbours.map { zip($0, uuid).prefix { $0 == $1 }.count }.max() ?? 0
      let length = max(8, shared + 1)
      shown[uuid] = length >= uuid.count ? "UUID(\(uuid))" : "UUID(\(uuid.prefix(length))…)"
    }
    return replacingUUIDs(shown)
  }

  private func collectUUIDs(into all: inout Set<String>) {
    switch self {
    case .atom(let text, _):
      if let uuid = Self.randomUUID(text) { all.insert(uuid) }
    case .list(_, let elements, _): for element in elements { element.collectUUIDs(into: &all) }
    case .dictionary(let entries):
      for entry in entries {
        entry.key.collectUUIDs(into: &all)
        entry.value.collectUUIDs(into: &all)
      }
    case .call(_, let arguments):
      for argument in arguments { argument.value.collectUUIDs(into: &all) }
    case .code:
      break  // Compiled values keep their UUIDs whole.
    }
  }

  private func replacingUUIDs(_ shown: [String: String]) -> SwiftValue {
    switch self {
    case .atom(let text, let kind):
      guard let uuid = Self.randomUUID(text), let short = shown[uuid] else { return self }
      return .atom(short, kind)
    case .list(let open, let elements, let close):
      return .list(open: open, elements: elements.map { $0.replacingUUIDs(shown) }, close: close)
    case .dictionary(let entries):
      return .dictionary(
        entries.map {
          .init(key: $0.key.replacingUUIDs(shown), value: $0.value.replacingUUIDs(shown))
        })
    case .call(let name, let arguments):
      return .call(
        name, arguments.map { .init(label: $0.label, value: $0.value.replacingUUIDs(shown)) })
    case .code:
      return self
    }
  }

  /// The UUID text of an atom the builder wrote as `UUID(<36 characters>)`.
  private static func randomUUID(_ text: String) -> String? {
    guard text.hasPrefix("UUID("), text.hasSuffix(")"), text.count == 42 else { return nil }
    return String(text.dropFirst(5).dropLast())
  }
}
