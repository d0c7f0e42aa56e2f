import Architecture

/// Runs a child feature on a part of the parent's state, for the parent's actions `extract`
/// picks out, and embeds the child's effects' actions with `embed`: how apps combined features
/// before `Scope`, written with plain closures as 0.x's `pullback` took them.
struct Pullback<State, Action, Child: Reducer>: Reducer {
  let state: WritableKeyPath<State, Child.State>
  let extract: (Action) -> Child.Action?
  let embed: (Child.Action) -> Action
  let child: Child

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let childAction = self.extract(action) else { return .none }
    return self.child
      .reduce(into: &state[keyPath: self.state], action: childAction)
      .map(self.embed)
  }
}

extension Pullback {
  /// The same child, scoped with a case path built from the two closures.
  var scoped: some Reducer<State, Action> {
    Scope(state: self.state, action: AnyCasePath(embed: self.embed, extract: self.extract)) {
      self.child
    }
  }
}
