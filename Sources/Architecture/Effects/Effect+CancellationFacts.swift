/// What an effect does to cancellation when it starts, free of scheduling: the ids it cancels
/// and the ids its runs can be cancelled by.
///
/// A recorder keeps these with each step, and a replay compares them with what today's
/// reducer returns, so a dropped `cancelInFlight` or a wrong `.cancel(id:)` is found at the
/// step that returned it, whether or not anything was in flight then.
@usableFromInline
package struct EffectCancellation: Sendable {
  /// The ids `.cancel(id:)` and `cancellable(id:cancelInFlight: true)` cancel, in pre-order.
  var cancelled: [CancelID] = []
  /// The ids the effect's runs are marked with by `cancellable(id:)`, in pre-order.
  var marked: [CancelID] = []

  /// Whether the effect neither cancels nor is cancellable.
  @usableFromInline
  package var isEmpty: Bool { cancelled.isEmpty && marked.isEmpty }

  /// The ids it cancels, as text (the navigation path's ids, then the id, joined by ` / `),
  /// sorted, each once.
  package var cancels: [String] { Self.texts(cancelled) }
  /// The ids its runs can be cancelled by, as text, sorted, each once.
  package var cancellable: [String] { Self.texts(marked) }

  private static func texts(_ ids: [CancelID]) -> [String] {
    Set(ids.map(\.text)).sorted()
  }
}

extension CancelID {
  /// The id and the path it was made under, as `String(reflecting:)` prints them, less the
  /// addresses it prints for private types.
  var text: String {
    let text = (path.components.map(\.reflection) + [id.reflection]).joined(separator: " / ")
    return StableNames.withoutUnknownContexts(text)
  }
}

extension Effect {
  /// Only what this effect cancels as it starts: its `.cancel(id:)`s, and the effects in flight
  /// that its `cancellable(id:cancelInFlight: true)`s replace. Nothing runs and nothing is sent.
  var cancellationsOnly: Self {
    switch operation {
    case .none, .send, .run:
      return .none
    case .cancel:
      return self
    case .merge(let effects), .concatenate(let effects):
      return .merge(effects.map(\.cancellationsOnly))
    case .cancellable(let id, let cancelInFlight, let effect):
      let inner = effect.cancellationsOnly
      return cancelInFlight ? .merge(Self(operation: .cancel(id: id)), inner) : inner
    case .observed(let effect, _):
      return effect.cancellationsOnly
    }
  }

  /// What this effect cancels as it starts, and what its runs can be cancelled by.
  @usableFromInline
  package var cancellation: EffectCancellation {
    var facts = EffectCancellation()
    collect(into: &facts)
    return facts
  }

  private func collect(into facts: inout EffectCancellation) {
    switch operation {
    case .none, .send, .run:
      break
    case .merge(let effects), .concatenate(let effects):
      for effect in effects { effect.collect(into: &facts) }
    case .cancellable(let id, let cancelInFlight, let effect):
      if cancelInFlight { facts.cancelled.append(id) }
      facts.marked.append(id)
      effect.collect(into: &facts)
    case .cancel(let id):
      facts.cancelled.append(id)
    case .observed(let effect, _):
      effect.collect(into: &facts)
    }
  }
}
