extension JSONValue {
  /// Whether the redaction placeholder appears anywhere in this value.
  var holdsRedacted: Bool {
    switch self {
    case .string: self == Redaction.placeholder
    case .array(let elements): elements.contains { $0.holdsRedacted }
    case .object(let object): object.values.contains { $0.holdsRedacted }
    default: false
    }
  }

  /// Replaces every redaction placeholder in this value with `substitute`.
  mutating func replaceRedacted(with substitute: JSONValue) {
    if self == Redaction.placeholder {
      self = substitute
      return
    }
    modifyObject { object in
      for position in object.indices {
        object.modifyValue(at: position) { $0.replaceRedacted(with: substitute) }
      }
    }
    modifyArray { elements in
      for index in elements.indices { elements[index].replaceRedacted(with: substitute) }
    }
  }
}
