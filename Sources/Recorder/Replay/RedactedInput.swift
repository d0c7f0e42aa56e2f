import TraceJSON

extension JSONValue {
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
