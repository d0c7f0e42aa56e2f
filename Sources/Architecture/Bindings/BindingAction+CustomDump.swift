extension BindingAction: CustomDumpReflectable {
  /// Dumps as `.set(\Feature.State.$name, "Blob")`, as a test failure's diff shows it.
  package var customDumpMirror: Mirror {
    Mirror(
      self,
      children: ["set": (BindingKeyPathDump(self), storage.value)],
      displayStyle: .enum
    )
  }
}

extension BindingAction: CustomDebugStringConvertible {
  /// The action on one line: `.set(\Feature.State.$name, "Blob")`.
  public var debugDescription: String {
    ".set(\(BindingKeyPathDump(self).text), \(String(reflecting: storage.value)))"
  }
}

/// A binding action's key path as a dump prints it: `\Feature.State.$name`, or the key path's
/// own description while the field's name is not known.
private struct BindingKeyPathDump: CustomDumpStringConvertible {
  let text: String

  init<Root>(_ action: BindingAction<Root>) {
    if let name = action.fieldName(probing: action.storage.snapshot) {
      self.text = "\\\(dumpTypeName(Root.self)).\(name)"
    } else {
      self.text = "\(action.keyPath)"
    }
  }

  var customDumpDescription: String { text }
}
