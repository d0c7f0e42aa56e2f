import Architecture

/// A reducer over ``Reflected`` states and actions: how replay runs a reducer whose types are
/// not `Codable` through the machinery that decodes and encodes them.
///
/// Package-visible so the benchmarks replay through it in process, as `ReplayTarget` does.
package struct ReflectingReducer<Base: Reducer>: Reducer {
  let base: Base

  package init(base: Base) {
    self.base = base
  }

  package func reduce(
    into state: inout Reflected<Base.State>, action: Reflected<Base.Action>
  ) -> Effect<Reflected<Base.Action>> {
    base.reduce(into: &state.value, action: action.value).map { Reflected($0) }
  }
}

extension ReflectingReducer: Sendable where Base: Sendable {}
