import TraceJSON

extension TestGenerator {
  /// Checks recorded values against today's types, so that a trace from an older build gives a
  /// test that compiles, with the steps whose actions no longer decode left out and marked.
  ///
  /// The command-line tool has no access to an app's types; code that does (a test target,
  /// a small script in the app's package) passes one:
  ///
  /// ```swift
  /// var options = TestGenerator.Options()
  /// options.typeCheck = .decoding(CounterFeature.State.self, CounterFeature.Action.self)
  /// ```
  package struct TypeCheck: Sendable {
    /// Why a recorded state does not decode today, or `nil` when it does.
    package var state: @Sendable (JSONValue) -> String?
    /// Why a recorded action does not decode today, or `nil` when it does.
    package var action: @Sendable (JSONValue) -> String?

    /// Creates a check from two closures that explain a value that does not decode.
    package init(
      state: @escaping @Sendable (JSONValue) -> String?,
      action: @escaping @Sendable (JSONValue) -> String?
    ) {
      self.state = state
      self.action = action
    }

    /// Decodes states as `State` and actions as `Action` with the trace's own decoder.
    package static func decoding<State: Decodable, Action: Decodable>(
      _ state: State.Type, _ action: Action.Type
    ) -> Self {
      Self(
        state: { json in Self.problem { _ = try JSONValueDecoder().decode(State.self, from: json) }
        },
        action: { json in
          Self.problem { _ = try JSONValueDecoder().decode(Action.self, from: json) }
        }
      )
    }

    private static func problem(_ decode: () throws -> Void) -> String? {
      do {
        try decode()
        return nil
      } catch {
        return "\(error)"
      }
    }
  }
}
