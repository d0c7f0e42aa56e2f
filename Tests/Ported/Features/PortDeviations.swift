import Architecture

// PORT-DEVIATION: TCA 1.3's `.ifLet(\.$alert, action: /Action.alert)` (no child reducer) needs
// AlertState and ConfirmationDialogState to be `_EphemeralState`; `Architecture` does not
// declare that conformance yet, so the call fails with "requires that
// 'AlertState<…>' conform to '_EphemeralState'". A 1.3 app never writes these two lines.
extension AlertState: _EphemeralState {}
extension ConfirmationDialogState: _EphemeralState {}

// PORT-DEVIATION: TCA 1.3 tests write `XCTModify(&$0.destination, case: /Destination.State.x)`
// with an optional `destination`, which CasePaths 1.x serves with an optional-promoting `/`
// overload (`(Value) -> Root?` to `CasePath<Root?, Value>`). `Architecture` lacks it: the call
// compiles against the plain `/` (the embed is silently widened to return `Root?`), and then
// extraction always fails at run time ("XCTModify failed: expected to extract value of type
// \"SignUp.State\" from \"Onboarding.Destination.State?\""). This overload restores 1.3's
// behaviour for the corpus; the test files themselves are unchanged.
prefix func / <Root, Value>(
  embed: @escaping (Value) -> Root?
) -> AnyCasePath<Root?, Value> {
  let embed = unsafeBitCast(embed, to: (@Sendable (Value) -> Root?).self)
  let unwrapped: AnyCasePath<Root, Value> = /{ embed($0)! }
  return AnyCasePath(embed: embed, extract: { $0.flatMap(unwrapped.extract(from:)) })
}
