extension Reducer {
  /// Prints every action the reducer receives and the state change it caused.
  ///
  /// ```swift
  /// Store(initialState: CounterFeature.State()) {
  ///   CounterFeature()
  ///     ._printChanges()
  /// }
  /// ```
  ///
  /// This is the cheap console view; the `Recorder` module records the same facts to a trace
  /// that can be replayed.
  public func _printChanges(
    _ printer: _ReducerPrinter<State, Action>? = .customDump,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(
      base: self, printer: printer, site: ReducerSite(fileID: fileID, line: line))
  }
}

/// Formats what `_printChanges` prints, as a value wrapping a closure.
public struct _ReducerPrinter<State, Action> {
  private let _printChange: (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void

  /// Creates a printer from a closure given the action and the states before and after it.
  public init(
    printChange: @escaping (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void
  ) {
    self._printChange = printChange
  }

  /// Prints one change.
  public func printChange(receivedAction: Action, oldState: State, newState: State) {
    _printChange(receivedAction, oldState, newState)
  }

  /// Prints the action and a diff of the state, as TCA's `_printChanges` does.
  public static var customDump: Self {
    customDump { print($0) }
  }

  /// Like ``customDump``, writing each change's text to `output`.
  public static func customDump(to output: @escaping (String) -> Void) -> Self {
    Self { action, oldState, newState in
      var text = "received action:\n"
      text += Architecture.customDump(action).indented(by: 2)
      text += "\n"
      if let difference = diff(oldState, newState) {
        text += difference
      } else {
        text += "  (No state changes)"
      }
      output(text)
    }
  }
}

/// The reducer `_printChanges` returns.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: _ReducerPrinter<Base.State, Base.Action>?
  let site: ReducerSite

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let printer else { return reduceBase(into: &state, action: action) }
    let oldState = state
    let effect = reduceBase(into: &state, action: action)
    printer.printChange(receivedAction: action, oldState: oldState, newState: state)
    return effect
  }

  private func reduceBase(
    into state: inout Base.State, action: Base.Action
  ) -> Effect<Base.Action> {
    Blame.run(
      BlameFrame(kind: "_printChanges", site: site, segment: .same, isLeaf: false), &state
    ) { base.reduce(into: &$0, action: action) }
  }
}

extension String {
  func indented(by count: Int) -> String {
    let padding = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : padding + $0 }
      .joined(separator: "\n")
  }
}
