import TraceJSON

extension SwiftRenderer {
  /// A struct written with its memberwise initializer, `Todo(id: UUID(0), title: "Milk")`, when
  /// the trace read its stored properties from its metadata and it encodes each of them, under
  /// its own name (a property wrapper's `_name` as `name`), and nothing else.
  ///
  /// Swift synthesizes that initializer for a struct that declares no `init` in its body, with
  /// the stored properties in declaration order, each labelled by its name (a wrapper's by its
  /// wrapped name and type). An empty struct is `Empty()`. `nil` when the trace cannot tell,
  /// so the caller decodes the value instead.
  mutating func memberwise(
    _ json: JSONValue, type: String, members: [TypeSchema.Member], indent: Int
  ) -> String? {
    guard let object = json.objectValue, let fields = schema.fields[type],
      Self.isTypeName(type)
    else { return nil }
    var labels: [String] = []
    var arguments: [String] = []
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
      let value: String
      if let recorded = object[label] {
        value = expression(recorded, type: member.type, indent: indent + 1)
      } else if member.isOptional {
        value = "nil"
      } else {
        return nil
      }
      labels.append(label)
      arguments.append("\(label): \(value)")
    }
    // A member that is no stored property (a custom encoding) cannot be passed.
    guard object.keys.allSatisfy(labels.contains) else { return nil }
    return call(TypeName.displayName(type), arguments, indent: indent)
  }

  /// A stack with exactly its recorded ids, which `StackState([…])` would number afresh:
  ///
  /// ```swift
  /// {
  ///   var stack = StackState<Path.State>()
  ///   stack[id: 0] = .detail(Detail.State(title: "A"))
  ///   return stack
  /// }()
  /// ```
  mutating func stack(_ json: JSONValue, type: String, indent: Int) -> String? {
    guard let entries = json.arrayValue, let elementType = TypeName.genericArgument(of: type),
      Self.isTypeName(type)
    else { return nil }
    let name = TypeName.displayName(type)
    if entries.isEmpty { return "\(name)()" }
    let pad = String(repeating: "  ", count: indent + 1)
    var lines = ["{", "\(pad)var stack = \(name)()"]
    for entry in entries {
      guard let fields = entry.objectValue, let id = fields["id"]?.int64Value, id >= 0,
        let element = fields["element"]
      else { return nil }
      lines.append(
        "\(pad)stack[id: \(id)] = " + expression(element, type: elementType, indent: indent + 1))
    }
    lines += ["\(pad)return stack", String(repeating: "  ", count: indent) + "}()"]
    return lines.joined(separator: "\n")
  }

  /// `Name(a: 1, b: 2)` on one line when it fits beside a call or an assignment (76
  /// characters), else one argument a line.
  private func call(_ name: String, _ arguments: [String], indent: Int) -> String {
    let single = name + "(" + arguments.joined(separator: ", ") + ")"
    if single.count <= 76, !single.contains("\n") { return single }
    let pad = String(repeating: "  ", count: indent + 1)
    return name + "(\n" + arguments.map { pad + $0 }.joined(separator: ",\n") + "\n"
      + String(repeating: "  ", count: indent) + ")"
  }
}
