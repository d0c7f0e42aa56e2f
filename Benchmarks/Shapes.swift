import Architecture
import Counter

/// A feature to benchmark: a reducer, a starting state and the action to send at step `i`.
struct Shape<R: Reducer> where R.State: Codable, R.Action: Codable {
  var name: String
  var reducer: R
  var initialState: R.State
  var action: (Int) -> R.Action
  var dependencies: (inout DependencyValues) -> Void = { _ in }
}

@MainActor let counterShape = Shape(
  name: "counter",
  reducer: CounterFeature(),
  initialState: CounterFeature.State(),
  action: { $0.isMultiple(of: 2) ? .incrementButtonTapped : .decrementButtonTapped }
)
