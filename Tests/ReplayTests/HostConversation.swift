import Foundation

/// Conversations a real replay host held with `tca-replay` over `Traces/counter.ndjson`: what
/// the host protocol fuzz mutates.
///
/// Recorded with `tee` on both sides of the host, from the package root after `swift build`:
///
/// ```
/// tca-replay verify Traces/counter.ndjson --timeout 5 \
///   --host "tee verify-ok.req | .build/debug/example-replay-host | tee verify-ok.out"
/// ```
///
/// and the same for `bisect`, and with `mutant-replay-host fact-failure-as-fact` as the host,
/// whose counter shows a failed fact request as the fact: three steps diverge. `verify` asks for
/// no preceding steps, `bisect` for five, so their diverging reports differ. Neither host sent
/// `progress`: the trace replays in well under the 250 ms between two.
struct HostConversation: Sendable {
  /// The host's lines, without their newlines: its `hello`, then its answer to request 1.
  var hello: String
  var answer: String
  /// What `tca-replay` exits with for this conversation: 0 or 1.
  var status: Int32

  /// The example host: the trace replays without divergence (for `verify` and `bisect` alike).
  static let matches = HostConversation(
    hello: #"{"kind":"hello","protocol":1,"tool":"tca-replay 0.1.0","reducers":[{"reducer":"Counter"#
      + #"Feature","stateType":"Counter.CounterFeature.State","actionType":"Counter.CounterFeatu"#
      + #"re.Action"},{"reducer":"TodosFeature","stateType":"Todos.TodosFeature.State","actionTy"#
      + #"pe":"Todos.TodosFeature.Action"},{"reducer":"AppFeature","stateType":"ComposedApp.AppF"#
      + #"eature.State","actionType":"ComposedApp.AppFeature.Action"},{"reducer":"BookshelfFeatu"#
      + #"re","stateType":"Bookshelf.BookshelfFeature.State","actionType":"Bookshelf.BookshelfFe"#
      + #"ature.Action"}]}"#,
    answer: #"{"kind":"report","id":1,"report":{"trace":"Traces/counter.ndjson","reducer":"CounterFe"#
      + #"ature","mode":"isolated","steps":243,"replayed":243,"divergentSteps":0,"divergences":["#
      + #"],"notReplayable":[],"unknown":0,"warnings":[]}}"#,
    status: 0
  )

  /// The mutant host, answering `verify`'s request (`"precedingSteps":0`).
  static let verifyDiverges = HostConversation(
    hello: divergingHello,
    answer: #"{"kind":"report","id":1,"report":{"trace":"Traces/counter.ndjson","reducer":"CounterFe"#
      + #"ature","mode":"isolated","steps":243,"replayed":243,"divergentSteps":3,"divergences":["#
      + #"{"step":77,"label":".factRequestFailed(\"No fact is known abou…\")","action":{"factReq"#
      + #"uestFailed":{"_0":"No fact is known about -2."}},"origin":{"kind":"effect","cause":76}"#
      + #","reason":"state","differences":[{"path":"/factError","expected":"No fact is known abo"#
      + #"ut -2."},{"path":"/fact","actual":"No fact is known about -2."}],"precedingSteps":[],""#
      + #"extraDependencyReads":0,"unreadDependencyValues":0,"issues":[]}],"notReplayable":[],"u"#
      + #"nknown":0,"warnings":[]}}"#,
    status: 1
  )

  /// The mutant host, answering `bisect`'s request (`"precedingSteps":5`).
  static let bisectDiverges = HostConversation(
    hello: divergingHello,
    answer: #"{"kind":"report","id":1,"report":{"trace":"Traces/counter.ndjson","reducer":"CounterFe"#
      + #"ature","mode":"isolated","steps":243,"replayed":243,"divergentSteps":3,"divergences":["#
      + #"{"step":77,"label":".factRequestFailed(\"No fact is known abou…\")","action":{"factReq"#
      + #"uestFailed":{"_0":"No fact is known about -2."}},"origin":{"kind":"effect","cause":76}"#
      + #","reason":"state","differences":[{"path":"/factError","expected":"No fact is known abo"#
      + #"ut -2."},{"path":"/fact","actual":"No fact is known about -2."}],"precedingSteps":[{"i"#
      + #"ndex":72,"label":".decrementButtonTapped","origin":{"kind":"send"}},{"index":73,"label"#
      + #"":".decrementButtonTapped","origin":{"kind":"send"}},{"index":74,"label":".decrementBu"#
      + #"ttonTapped","origin":{"kind":"send"}},{"index":75,"label":".decrementButtonTapped","or"#
      + #"igin":{"kind":"send"}},{"index":76,"label":".factButtonTapped","origin":{"kind":"send""#
      + #"}}],"extraDependencyReads":0,"unreadDependencyValues":0,"issues":[]}],"notReplayable":"#
      + #"[],"unknown":0,"warnings":[]}}"#,
    status: 1
  )

  private static let divergingHello =
    #"{"kind":"hello","protocol":1,"tool":"tca-replay 0.1.0","reducers":[{"reducer":"FactFai"#
    + #"lureAsFact","stateType":"Counter.CounterFeature.State","actionType":"Counter.CounterFe"#
    + #"ature.Action"},{"reducer":"TodosFeature","stateType":"Todos.TodosFeature.State","actio"#
    + #"nType":"Todos.TodosFeature.Action"},{"reducer":"AppFeature","stateType":"ComposedApp.A"#
    + #"ppFeature.State","actionType":"ComposedApp.AppFeature.Action"},{"reducer":"BookshelfFe"#
    + #"ature","stateType":"Bookshelf.BookshelfFeature.State","actionType":"Bookshelf.Bookshel"#
    + #"fFeature.Action"}]}"#
}
