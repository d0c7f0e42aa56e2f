/// A readable, deterministic, multi-line description of `value`, in the style of Point-Free's
/// `customDump`: structures as `Type(field: value, …)` one field a line, enums as
/// `.case(payload)`, optionals as their wrapped value or `nil`, collections with their indices,
/// and dictionaries and sets sorted.
///
/// ```swift
/// customDump(CounterFeature.State(count: 2))
/// // CounterFeature.State(
/// //   count: 2,
/// //   isLoading: false
/// // )
/// customDump(CounterFeature.Action.incrementButtonTapped)
/// // CounterFeature.Action.incrementButtonTapped
/// ```
///
/// - Parameters:
///   - value: The value to describe.
///   - name: A label to print before the value, as `name: value`.
///   - indent: Spaces to indent every line by.
///   - maxDepth: The nesting depth from which structures and collections print folded, as
///     `Type(…)` or `[…]`; `0` folds the value itself.
public func customDump<Value>(
  _ value: Value,
  name: String? = nil,
  indent: Int = 0,
  maxDepth: Int = .max
) -> String {
  var dumper = Dumper(maxDepth: maxDepth)
  dumper.dump(value, name: name)
  return dumper.lines.map { $0.rendered(indent: indent) }.joined(separator: "\n")
}

/// Writes ``customDump(_:name:indent:maxDepth:)`` of `value` into `target`, without a final
/// line break.
public func customDump<Value, Target: TextOutputStream>(
  _ value: Value,
  to target: inout Target,
  name: String? = nil,
  indent: Int = 0,
  maxDepth: Int = .max
) {
  target.write(customDump(value, name: name, indent: indent, maxDepth: maxDepth))
}
