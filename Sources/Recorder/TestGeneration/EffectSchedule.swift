/// What one generated test function does about effects, step by step: where it turns running
/// effects on or off, how far it advances its test clock before each step, and which effect
/// actions it receives for real and which it feeds in.
///
/// A test runs the effects of the steps ``EffectPlan`` allows, from the first of them on a
/// `TestClock` whose zero is that step's time. Before each later step the clock moves on to the
/// step's recorded time (the trace's `clock`, or `time` with a live clock), rounded up to the
/// millisecond, so that timers and debounces fire where they fired when recording, and an
/// action an effect should not send (or should send later) fails the step it arrives before.
struct EffectSchedule {
  /// `store.runsEffects = …` before the step, by step index, where it changes.
  var settings: [Int: Bool] = [:]
  /// How many milliseconds the clock advances before the step, by step index.
  var advances: [Int: Int64] = [:]
  /// Why an action an effect sent is fed in, by step index; effect steps not listed are
  /// received from the effect, which the test ran.
  var fedReasons: [Int: String] = [:]
  /// The clock dependencies the test's clock stands in for; empty when no effect runs.
  var clocks: Set<String> = []
  /// Steps whose effects the recording was still running after the last step.
  var runningAtEnd: [Int] = []
  /// Sent steps whose effects the test awaits, `let stepN = await store.send(…)`.
  var bound: Set<Int> = []
  /// The sent steps whose effects end, by the trace, with the step: awaited after it.
  var finishesAfter: [Int: [Int]] = [:]
  /// The sent steps whose effects ended between the step before and this one: awaited once
  /// the clock has moved on to this step, before it is sent.
  var finishesBefore: [Int: [Int]] = [:]

  /// Whether the function runs any effect for real, and so has a clock.
  var runsEffects: Bool { !clocks.isEmpty }

  init(steps: [TraceStep], plan: EffectPlan) {
    var verdicts = Dictionary(
      uniqueKeysWithValues: steps.map { ($0.index, plan.verdict(for: $0)) })
    // A test store reduces what a running effect sends as it arrives, before the test can turn
    // effects off for it: an effect runs only if the effects of every step it sends run too.
    for step in steps.reversed() {
      guard case .effect(let cause?) = step.origin, case .fed? = verdicts[step.index] ?? nil,
        verdicts[cause] == .runs
      else { continue }
      verdicts[cause] = .fed(
        "the effect of step \(cause) sends step \(step.index), whose own effect cannot run")
    }
    // Steps by index: the walks below look up causes, and a linear search made them quadratic.
    let stepAt = Dictionary(steps.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
    // The steps each sent step's effects sent, at any remove: a test awaits them all.
    var descendants: [Int: [Int]] = [:]
    for step in steps {
      guard case .effect(var cause?) = step.origin else { continue }
      while true {
        descendants[cause, default: []].append(step.index)
        guard let parent = stepAt[cause],
          case .effect(let next?) = parent.origin
        else { break }
        cause = next
      }
    }
    // Only a function with an effect to run has a clock; the others keep effects off.
    guard verdicts.values.contains(.runs) else {
      for step in steps {
        fedReasons[step.index] = Self.fedReason(step, ran: [], verdicts: verdicts)
      }
      return
    }
    var current = true  // A test store runs effects unless told otherwise.
    var running: [Int: Int] = [:]  // Effect number: the step that started it, run for real.
    var ran: Set<Int> = []  // Steps reduced with effects on.
    var anchor: Double?
    var clockNow: Int64 = 0
    for step in steps {
      running = running.filter { !plan.hasEnded($0.key, by: step.index - 1) }
      let verdict = verdicts[step.index] ?? nil
      var wanted = current
      switch verdict {
      case .runs?: wanted = true
      case .fed?: wanted = false
      // Cancellations and `.send` effects: on while an effect the test ran may be cancelled.
      case nil: if !running.isEmpty { wanted = true }
      }
      if wanted != current {
        settings[step.index] = wanted
        current = wanted
      }
      if let anchor {
        let target = Self.milliseconds(Self.clockTime(step) - anchor)
        if target > clockNow {
          advances[step.index] = target - clockNow
          clockNow = target
        }
      }
      if case .effect = step.origin,
        let reason = Self.fedReason(step, ran: ran, verdicts: verdicts)
      {
        fedReasons[step.index] = reason
      }
      guard current else { continue }
      ran.insert(step.index)
      if verdict == .runs {
        for effect in step.effects { running[effect] = step.index }
        clocks.formUnion(plan.clocks(readBy: step))
        if anchor == nil { anchor = Self.clockTime(step) }
      }
    }
    guard let last = steps.last?.index else { return }
    var stillRunning = Set(running.filter { !plan.hasEnded($0.key, by: last) }.values)
    // The effects of each send, awaited where the recording saw them end.
    for step in steps where ran.contains(step.index) && verdicts[step.index] == .runs {
      guard case .send = step.origin else { continue }
      // Its effects, and those of the steps they sent that ran in the test.
      let effects = step.effects + (descendants[step.index] ?? []).flatMap { index in
        ran.contains(index) && verdicts[index] == .runs
          ? stepAt[index]?.effects ?? [] : []
      }
      let ends = effects.compactMap { plan.ends[$0] }
      guard ends.count == effects.count, !stillRunning.contains(step.index),
        !effects.contains(where: { running[$0] != nil && !plan.hasEnded($0, by: last) })
      else { continue }
      let endStep = ends.compactMap(\.afterStep).max() ?? step.index
      // Cancelled, or returning after sending the last step's action: over by that step's end.
      // Otherwise it ended some time before the next step, by when the clock has moved on.
      let lastEnds = ends.filter { ($0.afterStep ?? step.index) == endStep }
      var sentLast = false
      if let ending = stepAt[endStep],
        case .effect(let cause?) = ending.origin, cause == step.index
      {
        sentLast = true
      }
      if lastEnds.allSatisfy(\.cancelled) || sentLast {
        finishesAfter[max(endStep, step.index), default: []].append(step.index)
      } else if endStep < last {
        finishesBefore[endStep + 1, default: []].append(step.index)
      } else {
        stillRunning.insert(step.index)
        continue
      }
      bound.insert(step.index)
    }
    runningAtEnd = stillRunning.sorted()
    // An effect that read nothing clock-like still needs the clock declared for the others.
    if clocks.isEmpty { clocks = ["continuousClock"] }
  }

  /// Why the action of the effect step `step` is fed in rather than received, or `nil`.
  private static func fedReason(
    _ step: TraceStep, ran: Set<Int>, verdicts: [Int: EffectPlan.Verdict?]
  ) -> String? {
    guard case .effect(let cause) = step.origin else { return nil }
    guard let cause else { return "the effect that sent it belongs to a step the trace lacks" }
    if ran.contains(cause) { return nil }
    guard let verdict = verdicts[cause] else {
      return "the effect of step \(cause) started before this test's first step"
    }
    switch verdict {
    case .fed(let reason)?: return reason
    case .runs?, nil: return "effects were off when step \(cause) returned its effect"
    }
  }

  /// The step's time on the clock its effects used.
  static func clockTime(_ step: TraceStep) -> Double {
    step.clock ?? step.time
  }

  /// `seconds` in whole milliseconds, rounded up, so that a clock advanced by it reaches every
  /// deadline the recording had reached (a recorded action comes after its deadline).
  static func milliseconds(_ seconds: Double) -> Int64 {
    let milliseconds = (seconds * 1000 - 1e-6).rounded(.up)
    // NB: a trace's times are data: one past any clock (`1e19`) is clamped, never converted
    // with a trap, and the bound leaves room for sums of them.
    guard milliseconds > 0 else { return 0 }
    return Int64(min(milliseconds, Double(maximumMilliseconds)))
  }

  /// The longest advance a generated test makes: about 31,700 years.
  static var maximumMilliseconds: Int64 { 1_000_000_000_000_000 }

  /// `await clock.advance(by: .seconds(1))` for `milliseconds`.
  static func advance(_ milliseconds: Int64) -> String {
    let duration =
      milliseconds % 1000 == 0 ? ".seconds(\(milliseconds / 1000))" : ".milliseconds(\(milliseconds))"
    return "await clock.advance(by: \(duration))"
  }
}
