import Architecture
import Counter

/// `CounterFeature` with a bug: the increment button adds two.
struct CounterIncrementingByTwo: Reducer {
  typealias State = CounterFeature.State
  typealias Action = CounterFeature.Action

  var body: some ReducerOf<Self> {
    CounterFeature()
    Reduce { state, action in
      if action == .incrementButtonTapped { state.count += 1 }
      return .none
    }
  }
}

/// `CounterFeature` with a bug in what an effect feeds back: each timer tick adds two.
struct CounterTickingByTwo: Reducer {
  typealias State = CounterFeature.State
  typealias Action = CounterFeature.Action

  var body: some ReducerOf<Self> {
    CounterFeature()
    Reduce { state, action in
      if action == .timerTick { state.count += 1 }
      return .none
    }
  }
}
