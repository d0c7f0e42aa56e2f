import Architecture

// PORT-DEVIATION: TCA 1.3's `.ifLet(\.$alert, action: /Action.alert)` (no child reducer) needs
// AlertState and ConfirmationDialogState to be `_EphemeralState`; `Architecture` does not
// declare that conformance yet, so the call fails with "requires that
// 'AlertState<…>' conform to '_EphemeralState'". A 1.3 app never writes these two lines.
extension AlertState: _EphemeralState {}
extension ConfirmationDialogState: _EphemeralState {}
