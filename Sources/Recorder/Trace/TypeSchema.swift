import TraceJSON

/// What a trace knows about the Swift types behind its JSON: enough to write its states and
/// actions back as Swift expressions.
///
/// The recorder learns types as it encodes values and writes what it learns in the optional
/// `types` member of the header and of steps (see `Documentation/TraceFormat.md`). A reader
/// merges them in order: the schema after step N describes every value up to step N.
///
/// ```swift
/// var schema = TypeSchema()
/// schema.merge(header.types)
/// schema.description(of: "Counter.CounterFeature.Action")  // .enumeration([…])
/// ```
package struct TypeSchema: Sendable, Equatable {
  /// A member's (or payload value's, or element's) type, and whether it is optional.
  package struct Member: Sendable, Equatable {
    /// The member's name: a coding key, an enum payload label (`_0` for unlabeled) or `*`.
    package var name: String
    /// The full Swift name of its type, like `Foundation.UUID`; optionals are unwrapped.
    package var type: String
    /// Whether the member is an optional, encoded only when it is not `nil`.
    package var isOptional: Bool

    /// Describes member `name` of type `type`, optional or not.
    package init(name: String, type: String, isOptional: Bool = false) {
      self.name = name
      self.type = type
      self.isOptional = isOptional
    }
  }

  /// How one type encodes.
  package enum Description: Sendable, Equatable {
    /// A struct or class encoded as an object, member by member.
    case structure([Member])
    /// An enum encoded as `{"case": {payload}}`: each known case with its payload members.
    case enumeration([(name: String, payload: [Member])])
    /// An enum with raw values encoded as the raw value: raw value's JSON text to case name.
    case rawEnumeration([(raw: String, name: String)])
    /// A collection encoded as an array of elements of one type.
    case collection(element: String)
    /// A dictionary keyed by strings.
    case dictionary(value: String)
    /// A type encoded as one integer or string that a literal of that kind makes
    /// (`ExpressibleByIntegerLiteral`, `ExpressibleByStringLiteral`): an id like `ProductID`.
    case literal(Literal)

    /// The kinds of literal a ``TypeSchema/Description/literal(_:)`` type takes.
    package enum Literal: String, Sendable, Equatable {
      case integer, string
    }

    /// Whether two descriptions say the same, in the same order.
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.json == rhs.json }
  }

  /// One stored property of a struct, as its runtime metadata declares it.
  package struct Field: Sendable, Equatable {
    /// The property's name: `_name` for a property wrapper's storage.
    package var name: String
    /// Whether it is a `let`, which a test cannot assign.
    package var isLet: Bool

    /// Describes stored property `name`, a `let` or a `var`.
    package init(name: String, isLet: Bool) {
      self.name = name
      self.isLet = isLet
    }
  }

  /// The known types by full Swift name.
  package private(set) var types: [String: Description] = [:]
  /// The stored properties of the known structs, in declaration order: what a memberwise
  /// initializer takes, and which members are `let` (a type entry's `fields`).
  package private(set) var fields: [String: [Field]] = [:]
  /// The known types that are `Decodable`, which a test may decode from JSON (`decodable`).
  package private(set) var decodableTypes: Set<String> = []

  /// Creates an empty schema: every type unknown.
  package init() {}

  /// The description of `type`, if the trace described it.
  package func description(of type: String) -> Description? { types[type] }

  /// Adds what `json` (a `types` member) says; a `nil` or malformed member adds nothing.
  package mutating func merge(_ json: JSONValue?) {
    guard let object = json?.objectValue else { return }
    for (name, value) in object {
      // An entry may hold facts alone: a struct encoded under other names is not described.
      if let description = Description(json: value) { merge(description, into: name) }
      let entry = value.objectValue
      if let list = entry?["fields"]?.objectValue {
        noteFields(
          list.compactMap { key, kind in
            kind.stringValue.map { Field(name: key, isLet: $0 == "let") }
          },
          for: name)
      }
      if entry?["decodable"]?.boolValue == true { noteDecodable(name) }
    }
  }

  /// Records the stored properties of struct `type`; returns whether they were new.
  @discardableResult
  mutating func noteFields(_ list: [Field], for type: String) -> Bool {
    guard fields[type] == nil else { return false }
    fields[type] = list
    return true
  }

  /// Records that `type` is `Decodable`; returns whether that was new.
  @discardableResult
  mutating func noteDecodable(_ type: String) -> Bool {
    decodableTypes.insert(type).inserted
  }

  /// Adds `description` to what is known of `type`; returns whether that taught anything new.
  @discardableResult
  mutating func merge(_ description: Description, into type: String) -> Bool {
    guard let known = types[type] else {
      types[type] = description
      return true
    }
    let merged: Description
    switch (known, description) {
    case (.structure(let old), .structure(let new)):
      merged = .structure(old + new.filter { member in !old.contains { $0.name == member.name } })
    case (.enumeration(let old), .enumeration(let new)):
      var cases = old
      for newCase in new {
        if let index = cases.firstIndex(where: { $0.name == newCase.name }) {
          let payload = cases[index].payload
          cases[index].payload =
            payload
            + newCase.payload.filter { member in !payload.contains { $0.name == member.name } }
        } else {
          cases.append(newCase)
        }
      }
      merged = .enumeration(cases)
    case (.rawEnumeration(let old), .rawEnumeration(let new)):
      merged = .rawEnumeration(old + new.filter { raw in !old.contains { $0.raw == raw.raw } })
    default:
      merged = known
    }
    guard merged != known else { return false }
    types[type] = merged
    return true
  }

  /// The type of the value at the JSON path `tokens` in a value of `root`, if the schema knows.
  func type(at tokens: [String], in root: String) -> String? {
    var type = root
    for token in tokens {
      switch types[TypeName.unwrappingOptional(type)] {
      case let .structure(members)?:
        guard let member = members.first(where: { $0.name == token }) else { return nil }
        type = member.type
      case let .collection(element)?:
        type = element
      case let .dictionary(value)?:
        type = value
      default:
        return nil
      }
    }
    return type
  }

  /// Whether `json`, a value of `type`, holds nothing the schema does not describe: no unknown
  /// member, case, raw value or element. The recorder skips learning from such values.
  func covers(_ json: JSONValue, type: String) -> Bool {
    // A redacted value says nothing about its type, and the recorder learns nothing from it.
    if json == Redaction.placeholder { return true }
    switch (types[TypeName.unwrappingOptional(type)], json) {
    case (_, .null):
      return true
    case let (.structure(members)?, .object(object)):
      return object.allSatisfy { key, value in
        members.first { $0.name == key }.map { covers(value, type: $0.type) } ?? false
      }
    case let (.enumeration(cases)?, .object(object)):
      guard object.count == 1, let known = cases.first(where: { $0.name == object[0].key }),
        let payload = object[0].value.objectValue
      else { return false }
      return payload.allSatisfy { label, value in
        known.payload.first { $0.name == label }.map { covers(value, type: $0.type) } ?? false
      }
    case let (.rawEnumeration(cases)?, _):
      let raw = json.jsonString
      return cases.contains { $0.raw == raw }
    case let (.collection(element)?, .array(elements)):
      return elements.allSatisfy { covers($0, type: element) }
    case let (.dictionary(value)?, .object(object)):
      return object.values.allSatisfy { covers($0, type: value) }
    case (.literal?, _):
      return true
    case (nil, .object), (nil, .array):
      return false
    case (nil, _):
      return true
    default:
      return false
    }
  }

  /// The schema as a `types` member: type names sorted, members in the order they were learned.
  package var json: JSONValue {
    let names = Set(types.keys).union(fields.keys).union(decodableTypes).sorted()
    return .object(
      JSONObject(
        names.map { name in
          var entry = types[name]?.json.objectValue ?? JSONObject()
          if let list = fields[name] {
            entry["fields"] = .object(
              JSONObject(list.map { ($0.name, .string($0.isLet ? "let" : "var")) }))
          }
          if decodableTypes.contains(name) { entry["decodable"] = true }
          return (name, .object(entry))
        }
      )
    )
  }
}

extension TypeSchema.Member {
  /// `"Type"`, or `"Type?"` for an optional.
  var typeText: String { isOptional ? type + "?" : type }

  init(name: String, typeText: String) {
    if typeText.hasSuffix("?") {
      self.init(name: name, type: String(typeText.dropLast()), isOptional: true)
    } else {
      self.init(name: name, type: typeText)
    }
  }
}

extension TypeSchema.Description {
  var json: JSONValue {
    func members(_ members: [TypeSchema.Member]) -> JSONValue {
      .object(JSONObject(members.map { ($0.name, .string($0.typeText)) }))
    }
    switch self {
    case .structure(let list):
      return ["struct": members(list)]
    case .enumeration(let cases):
      return ["enum": .object(JSONObject(cases.map { ($0.name, members($0.payload)) }))]
    case .rawEnumeration(let cases):
      return ["rawEnum": .object(JSONObject(cases.map { ($0.raw, .string($0.name)) }))]
    case .collection(let element):
      return ["array": .string(element)]
    case .dictionary(let value):
      return ["dictionary": .string(value)]
    case .literal(let kind):
      return ["literal": .string(kind.rawValue)]
    }
  }

  init?(json: JSONValue) {
    // The description is the entry's first member; `fields` and `decodable` may follow it.
    guard let object = json.objectValue, let (kind, body) = object.first else { return nil }
    func members(_ value: JSONValue) -> [TypeSchema.Member] {
      (value.objectValue ?? JSONObject()).compactMap { name, type in
        type.stringValue.map { TypeSchema.Member(name: name, typeText: $0) }
      }
    }
    switch kind {
    case "struct":
      self = .structure(members(body))
    case "enum":
      self = .enumeration(
        (body.objectValue ?? JSONObject()).map { (name: $0.key, payload: members($0.value)) }
      )
    case "rawEnum":
      self = .rawEnumeration(
        (body.objectValue ?? JSONObject()).compactMap { raw, name in
          name.stringValue.map { (raw: raw, name: $0) }
        }
      )
    case "array":
      guard let element = body.stringValue else { return nil }
      self = .collection(element: element)
    case "dictionary":
      guard let value = body.stringValue else { return nil }
      self = .dictionary(value: value)
    case "literal":
      guard let kind = body.stringValue.flatMap(Literal.init(rawValue:)) else { return nil }
      self = .literal(kind)
    default:
      return nil
    }
  }
}

extension TypeSchema {
  /// The type of the value a binding key path such as `child.$note` writes, from the schema of
  /// the state it starts at: the `T` of the `BindingState<T>` member it ends in.
  func bindingValueType(_ keyPath: String, in root: String) -> String? {
    var type = root
    for component in keyPath.split(separator: ".") {
      let name = component.hasPrefix("$") ? String(component.dropFirst()) : String(component)
      guard case .structure(let members)? = description(of: type),
        let member = members.first(where: { $0.name == name })
      else { return nil }
      type = member.type
    }
    guard TypeName.shortName(type) == "BindingState" else { return nil }
    return TypeName.genericArgument(of: type)
  }
}
