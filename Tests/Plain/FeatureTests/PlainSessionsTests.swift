import Architecture
import Testing

@testable import PlainFeatures

/// What one play of a session did, seen through a wrapper of its root reducer.
private struct Play {
  var actions: [String]
  var stalls: [String]
}

/// Plays `session` through a wrapper that logs every action the root reducer receives.
///
/// Its result does not mention `S`, so that it can be called with an `any PlainSession.Type`.
@MainActor
private func play<S: PlainSession>(_ session: S.Type) async -> Play {
  await playWithState(session).play
}

@MainActor
private func playWithState<S: PlainSession>(
  _ session: S.Type
) async -> (play: Play, state: S.Feature.State) {
  let log = LockIsolated<[String]>([])
  let outcome = await PlainSessions.run(session) { feature in
    Reduce<S.Feature.State, S.Feature.Action> { state, action in
      log.withValue { $0.append(String(describing: action)) }
      return feature.reduce(into: &state, action: action)
    }
  }
  return (Play(actions: log.value, stalls: outcome.stalls), outcome.finalState)
}

/// Plays `session` twice and says whether both plays reduced the same actions into the same
/// final state.
@MainActor
private func playsAlike<S: PlainSession>(_ session: S.Type) async -> Bool {
  let first = await playWithState(session)
  let second = await playWithState(session)
  return first.play.actions == second.play.actions && first.state == second.state
}

@MainActor
@Suite("Plain sessions")
struct PlainSessionsTests {
  @Test("the table lists eleven features under distinct names")
  func table() {
    let names = PlainSessions.all.map { $0.name }
    #expect(names.count == 11)
    #expect(Set(names).count == names.count)
  }

  @Test("every session completes on a plain Store, wrapped, reducing 10 to 60 actions")
  func sessionsComplete() async {
    for session in PlainSessions.all {
      let played = await play(session)
      let name = session.name
      #expect(played.stalls.isEmpty, "\(name): \(played.stalls)")
      #expect((10...60).contains(played.actions.count), "\(name): \(played.actions.count)")
    }
  }

  @Test("every session reduces the same actions into the same state on every play")
  func sessionsAreDeterministic() async {
    for session in PlainSessions.all {
      let name = session.name
      #expect(await playsAlike(session), "\(name) played differently twice")
    }
  }
}
