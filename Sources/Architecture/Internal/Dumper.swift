#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Walks a value with `Mirror` and writes its dump as ``DumpLine``s, one value a line where it
/// can and one field a line inside structures, so that a line diff of two dumps reads as a diff
/// of the values.
///
/// ```
/// CounterFeature.State(
///   count: 2,
///   todos: [
///     [0]: Todo(
///       id: UUID(00000000-0000-0000-0000-000000000000),
///       title: "Milk"
///     )
///   ],
///   destination: nil
/// )
/// ```
///
/// Enums print as `.case` or `.case(payload)`, with their type in front at the root; optionals
/// print their wrapped value or `nil`; dictionaries and sets print sorted by their dumped keys,
/// so that the text does not depend on the process's hash seed.
package struct Dumper {
  /// The lines written so far.
  package private(set) var lines: [DumpLine] = []
  /// The depth from which containers print folded, as `Type(…)` or `[…]`.
  package let maxDepth: Int

  /// The objects being dumped on the current path, so that a reference cycle prints once.
  private var objectsInProgress: Set<ObjectIdentifier> = []
  /// Names already worked out for types, keyed by type.
  private var typeNames: [ObjectIdentifier: TypeNames] = [:]
  /// How values of each type already seen are dumped, keyed by type.
  private var kinds: [ObjectIdentifier: Kind] = [:]

  /// Creates a dumper that folds containers from `maxDepth` levels down.
  package init(maxDepth: Int = .max) {
    self.maxDepth = maxDepth
  }

  /// Writes the dump of `value` as a root value, labelled `name: ` if a name is given.
  package mutating func dump(_ value: Any, name: String? = nil) {
    write(value, label: name.map { "\($0): " } ?? "", isIndex: false, depth: 0, isRoot: true)
  }

  // MARK: - Values

  private mutating func write(
    _ value: Any, label: String, isIndex: Bool, depth: Int, isRoot: Bool
  ) {
    let kind = kind(of: value)
    switch kind {
    case .representable:
      write(
        (value as! any CustomDumpRepresentable).customDumpValue,
        label: label, isIndex: isIndex, depth: depth, isRoot: isRoot
      )
      return
    case .anyHashable:
      write(
        (value as! AnyHashable).base, label: label, isIndex: isIndex, depth: depth, isRoot: isRoot
      )
      return
    case .string:
      writeString(value as! String, label: label, isIndex: isIndex, depth: depth)
      return
    case .substring:
      writeString(String(value as! Substring), label: label, isIndex: isIndex, depth: depth)
      return
    case .reflectable, .reflected:
      break
    default:
      writeLeaf(Self.leafText(value, kind), label: label, isIndex: isIndex, depth: depth)
      return
    }

    let mirror =
      kind == .reflectable
      ? (value as! any CustomDumpReflectable).customDumpMirror
      : Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional?:
      if let wrapped = mirror.children.first?.value {
        write(wrapped, label: label, isIndex: isIndex, depth: depth, isRoot: isRoot)
      } else {
        writeLeaf("nil", label: label, isIndex: isIndex, depth: depth)
      }
    case .enum?:
      writeEnum(value, mirror: mirror, label: label, isIndex: isIndex, depth: depth, isRoot: isRoot)
    case .tuple?:
      writeBlock(
        open: "(", close: ")", empty: "()", folded: "(…)", fields: mirror.children,
        label: label, isIndex: isIndex, depth: depth
      )
    case .collection?:
      writeCollection(mirror, label: label, isIndex: isIndex, depth: depth)
    case .dictionary?:
      writeDictionary(mirror, label: label, isIndex: isIndex, depth: depth)
    case .set?:
      writeSet(mirror, label: label, isIndex: isIndex, depth: depth)
    case .class?:
      writeObject(value, mirror: mirror, label: label, isIndex: isIndex, depth: depth)
    default:
      writeStructure(
        value, mirror: mirror, children: mirror.children,
        label: label, isIndex: isIndex, depth: depth
      )
    }
  }

  /// How a value is dumped, decided once per type: which hook or built-in format applies, or
  /// whether it is reflected.
  private enum Kind {
    case representable, stringConvertible, anyHashable, string, substring
    case bool, int, integer, floatingPoint, character, unicodeScalar
    case uuid, date, url, data, decimal, duration, objectIdentifier, keyPath, metatype
    case reflectable, reflected
  }

  /// The kind of `value`, from the cache for its type.
  ///
  /// Trying each hook and format with a dynamic cast costs more than the rest of dumping a
  /// small value, so each type is classified once per dump.
  private mutating func kind(of value: Any) -> Kind {
    let valueType = type(of: value)
    let key = ObjectIdentifier(valueType)
    if let kind = kinds[key] { return kind }
    // An optional would pass the casts below when it holds a value and fail them when it is
    // `nil`, so optionals are always reflected, and so unwrapped.
    let kind = valueType is any OptionalMarker.Type ? .reflected : Self.classify(valueType, value)
    kinds[key] = kind
    return kind
  }

  /// Classifies by the type rather than the value where it can: casting a value to a protocol
  /// can bridge it to an Objective-C class first (an array to `NSArray`, element by element).
  private static func classify(_ valueType: Any.Type, _ value: Any) -> Kind {
    if value is any Any.Type { return .metatype }
    return switch valueType {
    case is any CustomDumpRepresentable.Type: .representable
    case is any CustomDumpStringConvertible.Type: .stringConvertible
    case is AnyHashable.Type: .anyHashable
    case is String.Type: .string
    case is Substring.Type: .substring
    case is Bool.Type: .bool
    case is Int.Type: .int
    case is any BinaryInteger.Type: .integer
    case is any FloatingPoint.Type: .floatingPoint
    case is Character.Type: .character
    case is Unicode.Scalar.Type: .unicodeScalar
    case is UUID.Type: .uuid
    case is Date.Type: .date
    case is URL.Type: .url
    case is Data.Type: .data
    case is Decimal.Type: .decimal
    case is Duration.Type: .duration
    case is ObjectIdentifier.Type: .objectIdentifier
    case is AnyKeyPath.Type: .keyPath
    case is any CustomDumpReflectable.Type: .reflectable
    default: .reflected
    }
  }

  /// The one-line text of a value of a kind that prints as a literal or `Type(description)`.
  private static func leafText(_ value: Any, _ kind: Kind) -> String {
    switch kind {
    case .stringConvertible: (value as! any CustomDumpStringConvertible).customDumpDescription
    case .bool: (value as! Bool) ? "true" : "false"
    case .int: String(value as! Int)
    case .character: String(value as! Character).debugDescription
    case .unicodeScalar: String(value as! Unicode.Scalar).debugDescription
    case .uuid: "UUID(\((value as! UUID).uuidString))"
    case .date: "Date(\(DumpFormatting.iso8601(value as! Date)))"
    case .url: "URL(\((value as! URL).absoluteString))"
    case .data: "Data(\((value as! Data).count) bytes)"
    case .metatype: dumpTypeName(value as! any Any.Type) + ".self"
    default: "\(value)"
    }
  }

  /// Writes a value printed as text, one line for each line of the text.
  private mutating func writeLeaf(_ text: String, label: String, isIndex: Bool, depth: Int) {
    guard text.utf8.contains(UInt8(ascii: "\n")) else {
      lines.append(DumpLine(depth: depth, label: label, labelIsIndex: isIndex, text: text))
      return
    }
    let parts = Self.splitLines(text)
    lines.append(DumpLine(depth: depth, label: label, labelIsIndex: isIndex, text: parts[0]))
    for part in parts.dropFirst() {
      lines.append(DumpLine(depth: depth, text: part))
    }
  }

  /// Writes a string as a quoted literal, or as a multi-line literal if it has line breaks.
  private mutating func writeString(_ string: String, label: String, isIndex: Bool, depth: Int) {
    guard string.utf8.contains(UInt8(ascii: "\n")) else {
      lines.append(
        DumpLine(depth: depth, label: label, labelIsIndex: isIndex, text: string.debugDescription)
      )
      return
    }
    let delimiters = DumpFormatting.multilineDelimiters(for: string)
    lines.append(
      DumpLine(
        depth: depth, label: label, labelIsIndex: isIndex, text: delimiters.open,
        closing: delimiters.close
      )
    )
    for line in Self.splitLines(string) {
      lines.append(DumpLine(depth: depth + 1, text: line))
    }
    lines.append(DumpLine(depth: depth + 1, text: delimiters.close, isClosing: true))
  }

  private static func splitLines(_ text: String) -> [String] {
    text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0)
    }
  }

  // MARK: - Enums

  private mutating func writeEnum(
    _ value: Any, mirror: Mirror, label: String, isIndex: Bool, depth: Int, isRoot: Bool
  ) {
    let payload = mirror.children.first
    let caseName = payload?.label ?? DumpFormatting.enumCaseName(value) ?? "\(value)"
    let head = (isRoot ? dumpEnumTypeName(mirror.subjectType) : "") + "." + caseName
    guard let payload else {
      writeLeaf(head, label: label, isIndex: isIndex, depth: depth)
      return
    }
    let payloadMirror = Mirror(reflecting: payload.value)
    let fields =
      payloadMirror.displayStyle == .tuple
      ? payloadMirror.children
      : Mirror.Children([(label: nil, value: payload.value)])
    writeBlock(
      open: head + "(", close: ")", empty: head + "()", folded: head + "(…)", fields: fields,
      label: label, isIndex: isIndex, depth: depth, inlinesSingleLineFields: true
    )
  }

  // MARK: - Structures and objects

  private mutating func writeStructure(
    _ value: Any, mirror: Mirror, children: Mirror.Children, label: String, isIndex: Bool,
    depth: Int
  ) {
    let name = names(of: mirror.subjectType).name
    if children.isEmpty, mirror.displayStyle == nil || value is any CustomStringConvertible {
      writeLeaf("\(value)", label: label, isIndex: isIndex, depth: depth)
      return
    }
    writeBlock(
      open: name + "(", close: ")", empty: name + "()", folded: name + "(…)",
      fields: children,
      label: label, isIndex: isIndex, depth: depth
    )
  }

  private mutating func writeObject(
    _ value: Any, mirror: Mirror, label: String, isIndex: Bool, depth: Int
  ) {
    var mirrors = [mirror]
    while let superclassMirror = mirrors.last?.superclassMirror {
      mirrors.append(superclassMirror)
    }
    let children =
      mirrors.count == 1
      ? mirror.children
      : Mirror.Children(mirrors.reversed().flatMap { Array($0.children) })
    guard type(of: value) is AnyClass else {
      writeStructure(
        value, mirror: mirror, children: children, label: label, isIndex: isIndex, depth: depth
      )
      return
    }
    let id = ObjectIdentifier(value as AnyObject)
    guard objectsInProgress.insert(id).inserted else {
      let name = names(of: mirror.subjectType).name
      writeLeaf(name + "(↩︎)", label: label, isIndex: isIndex, depth: depth)
      return
    }
    writeStructure(
      value, mirror: mirror, children: children, label: label, isIndex: isIndex, depth: depth
    )
    objectsInProgress.remove(id)
  }

  // MARK: - Collections

  private mutating func writeCollection(
    _ mirror: Mirror, label: String, isIndex: Bool, depth: Int
  ) {
    let names = names(of: mirror.subjectType)
    let isArray = names.reflected.hasPrefix("Swift.Array<")
    let elements = mirror.children
    guard !elements.isEmpty, depth < maxDepth else {
      let text =
        elements.isEmpty
        ? (isArray ? "[]" : names.name + "()")
        : (isArray ? "[…]" : names.name + "(…)")
      writeLeaf(text, label: label, isIndex: isIndex, depth: depth)
      return
    }
    let close = isArray ? "]" : ")"
    lines.append(
      DumpLine(
        depth: depth, label: label, labelIsIndex: isIndex,
        text: isArray ? "[" : names.name + "(", closing: close
      )
    )
    var index = 0
    for element in elements {
      if index > 0 { lines[lines.count - 1].hasComma = true }
      write(element.value, label: "[\(index)]: ", isIndex: true, depth: depth + 1, isRoot: false)
      index += 1
    }
    lines.append(DumpLine(depth: depth, text: close, isClosing: true))
  }

  private mutating func writeDictionary(
    _ mirror: Mirror, label: String, isIndex: Bool, depth: Int
  ) {
    let names = names(of: mirror.subjectType)
    let isDictionary = names.reflected.hasPrefix("Swift.Dictionary<")
    var entries: [(key: DumpSortKey, value: Any)] = mirror.children.map { child in
      let pair = Array(Mirror(reflecting: child.value).children)
      guard pair.count == 2 else { return (DumpSortKey(child.label ?? ""), child.value) }
      return (DumpSortKey(compactDump(of: pair[0].value, depth: depth + 1)), pair[1].value)
    }
    guard !entries.isEmpty, depth < maxDepth else {
      let text =
        entries.isEmpty
        ? (isDictionary ? "[:]" : names.name + "()")
        : (isDictionary ? "[…]" : names.name + "(…)")
      writeLeaf(text, label: label, isIndex: isIndex, depth: depth)
      return
    }
    if isDictionary { entries.sort { $0.key < $1.key } }
    let close = isDictionary ? "]" : ")"
    lines.append(
      DumpLine(
        depth: depth, label: label, labelIsIndex: isIndex,
        text: isDictionary ? "[" : names.name + "(", closing: close
      )
    )
    for (index, entry) in entries.enumerated() {
      write(
        entry.value, label: entry.key.text + ": ", isIndex: false, depth: depth + 1, isRoot: false
      )
      if index < entries.count - 1 { lines[lines.count - 1].hasComma = true }
    }
    lines.append(DumpLine(depth: depth, text: close, isClosing: true))
  }

  private mutating func writeSet(_ mirror: Mirror, label: String, isIndex: Bool, depth: Int) {
    let names = names(of: mirror.subjectType)
    let name = names.reflected.hasPrefix("Swift.Set<") ? "Set" : names.name
    let elements = Array(mirror.children)
    guard !elements.isEmpty, depth < maxDepth else {
      let text = name + (elements.isEmpty ? "([])" : "(…)")
      writeLeaf(text, label: label, isIndex: isIndex, depth: depth)
      return
    }
    var chunks: [(key: DumpSortKey, lines: [DumpLine])] = []
    for element in elements {
      let start = lines.count
      write(element.value, label: "", isIndex: false, depth: depth + 1, isRoot: false)
      let chunk = Array(lines[start...])
      lines.removeSubrange(start...)
      chunks.append((DumpSortKey(chunk.map { $0.label + $0.text }.joined(separator: "\n")), chunk))
    }
    chunks.sort { $0.key < $1.key }
    lines.append(
      DumpLine(depth: depth, label: label, labelIsIndex: isIndex, text: name + "([", closing: "])")
    )
    for (index, chunk) in chunks.enumerated() {
      lines += chunk.lines
      if index < chunks.count - 1 { lines[lines.count - 1].hasComma = true }
    }
    lines.append(DumpLine(depth: depth, text: "])", isClosing: true))
  }

  /// The dump of `value` on one line, as a dictionary key: `Point(x: 1, y: 2)`.
  private mutating func compactDump(of value: Any, depth: Int) -> String {
    let start = lines.count
    write(value, label: "", isIndex: false, depth: depth, isRoot: false)
    var result = ""
    for line in lines[start...] {
      if !result.isEmpty, !result.hasSuffix("("), !result.hasSuffix("["), !line.isClosing {
        result += " "
      }
      result += line.label + line.text + (line.hasComma ? "," : "")
    }
    lines.removeSubrange(start...)
    return result
  }

  // MARK: - Blocks

  /// Writes `open`, one line or block for each field, and `close`; `empty` when there are no
  /// fields and `folded` when the block is too deep to print.
  ///
  /// With `inlinesSingleLineFields`, fields that each fit on a line are written on the opening
  /// line instead: `.response(id: 1, "Milk")`.
  private mutating func writeBlock(
    open: String, close: String, empty: String, folded: String, fields: Mirror.Children,
    label: String, isIndex: Bool, depth: Int, inlinesSingleLineFields: Bool = false
  ) {
    guard !fields.isEmpty, depth < maxDepth else {
      writeLeaf(fields.isEmpty ? empty : folded, label: label, isIndex: isIndex, depth: depth)
      return
    }
    let start = lines.count
    lines.append(
      DumpLine(depth: depth, label: label, labelIsIndex: isIndex, text: open, closing: close)
    )
    var count = 0
    for field in fields {
      if count > 0 { lines[lines.count - 1].hasComma = true }
      let fieldLabel = Self.fieldLabel(field.label).map { $0 + ": " } ?? ""
      write(field.value, label: fieldLabel, isIndex: false, depth: depth + 1, isRoot: false)
      count += 1
    }
    if inlinesSingleLineFields, lines.count - start - 1 == count {
      let inline = lines[(start + 1)...].map { $0.label + $0.text }.joined(separator: ", ")
      lines.removeSubrange(start...)
      lines.append(
        DumpLine(depth: depth, label: label, labelIsIndex: isIndex, text: open + inline + close)
      )
      return
    }
    lines.append(DumpLine(depth: depth, text: close, isClosing: true))
  }

  /// A mirror child's label as a field label: none for a tuple's positional `.0`, `.1`, ….
  private static func fieldLabel(_ label: String?) -> String? {
    guard let label, !label.hasPrefix(".") else { return nil }
    return label
  }

  // MARK: - Type names

  /// A type's name as reflection gives it and as a dump prints it.
  private struct TypeNames {
    var reflected: String
    var name: String
  }

  private mutating func names(of type: Any.Type) -> TypeNames {
    let key = ObjectIdentifier(type)
    if let names = typeNames[key] { return names }
    let names = TypeNames(reflected: String(reflecting: type), name: dumpTypeName(type))
    typeNames[key] = names
    return names
  }
}

/// Marks `Optional`, so that a dumper can tell an optional type from its wrapped type.
private protocol OptionalMarker {}

extension Optional: OptionalMarker {}
