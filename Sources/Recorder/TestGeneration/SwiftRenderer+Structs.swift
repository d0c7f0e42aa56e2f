import Foundation
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
    // A feature's state often declares an `init` of its own, which hides the memberwise one:
    // it is assembled from its stored properties instead (`Architecture`'s `assemble`).
    let assembles = type.hasSuffix(".State")
    var assembled: [String] = []
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
      if assembles, value == "nil" {
        assembled.append("\"\(label)\": nil")
      } else if assembles {
        guard let valueType = Self.sourceName(ofValueIn: member) else { return nil }
        let typed = Self.hasOwnType(value, valueType) ? value : "\(value) as \(valueType)"
        assembled.append("\"\(label)\": \(typed)")
      }
    }
    // A member that is no stored property (a custom encoding) cannot be passed.
    guard object.keys.allSatisfy(labels.contains) else { return nil }
    if assembles {
      let name = TypeName.displayName(type)
      guard !assembled.isEmpty else { return "\(name)()" }
      let single = "assemble(\(name).self, [\(assembled.joined(separator: ", "))])"
      if single.count + 2 * indent <= 72, !single.contains("\n") { return single }
      // As many entries to a line as fit, as a person wraps a dictionary literal.
      let pad = String(repeating: "  ", count: indent + 1)
      let lines = Self.packed(assembled, width: 100 - pad.count, lastComma: true)
      return "assemble(\(name).self, [\n" + lines.map { pad + $0 }.joined(separator: "\n")
        + "\n" + String(repeating: "  ", count: indent) + "])"
    }
    return call(TypeName.displayName(type), arguments, indent: indent)
  }

  /// Whether `value`, written as Swift, already has the type `type` without an `as`: a
  /// literal of its default type, or a call of the type's own name (`UUID(0)`).
  static func hasOwnType(_ value: String, _ type: String) -> Bool {
    switch type {
    case "String": return value.hasPrefix("\"") && value.hasSuffix("\"") && !value.contains("\n")
    case "Bool": return value == "true" || value == "false"
    case "Int": return !value.isEmpty && value.drop { $0 == "-" }.allSatisfy(\.isNumber)
    default:
      guard value.hasPrefix(type + "("), value.hasSuffix(")") else { return false }
      return type.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." }
    }
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
      return isTypeName(name) ? name : nil
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
    let lines = Self.packed(arguments, width: 100 - pad.count, lastComma: false)
    return name + "(\n" + lines.map { pad + $0 }.joined(separator: "\n") + "\n"
      + String(repeating: "  ", count: indent) + ")"
  }

  /// `items`, comma-separated, as many to a line as fit in `width` columns, as a person wraps
  /// arguments; an item that spans lines stands on its own. The last item takes a comma when
  /// `lastComma` (an array or dictionary literal). A line after the first of such an item is
  /// indented already, as it was rendered.
  static func packed(_ items: [String], width: Int, lastComma: Bool) -> [String] {
    var lines: [String] = []
    var line = ""
    for (position, item) in items.enumerated() {
      let comma = position < items.count - 1 || lastComma ? "," : ""
      if item.contains("\n") || (!line.isEmpty && line.count + 1 + item.count + comma.count > width) {
        if !line.isEmpty { lines.append(line) }
        line = ""
      }
      if item.contains("\n") {
        lines.append(item + comma)
        continue
      }
      line += (line.isEmpty ? "" : " ") + item + comma
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
