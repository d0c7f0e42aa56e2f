import Foundation
import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension CheckedTraceReader {
  /// A checked read of a whole trace on every core, for `summary`, `log` and replay: the file is
  /// split at line boundaries into runs that start at a keyframe, each run is read and checked on
  /// its own thread, and the results come back in trace order.
  ///
  /// ```swift
  /// let outcome = try CheckedTraceReader.Scan.run(path: path, options: .init()) { chunk in … }
  /// if case .needsCheckedRead = outcome { /* read it with CheckedTraceReader instead */ }
  /// ```
  ///
  /// Each run checks its lines as ``CheckedTraceReader`` does (steps numbered with no gap or
  /// repeat, every patch applying, every keyframe holding the state the patches rebuild); the
  /// run before checks the keyframe a run starts from. Step lines are read by
  /// `StepLineScanner`, which parses only the patch; any other line, and any step line it does
  /// not expect, is parsed in full. A trace with any problem, a blank line or an incomplete last
  /// line is handed back as ``Outcome/needsCheckedRead(fromLine:)``: the checked reader then
  /// gives the verdict in its own words.
  ///
  /// Fast path of ``CheckedTraceReader``; `TraceScanTests.sameAsChecked` keeps them equal.
  package enum Scan {
    /// What a scan reads and keeps.
    package struct Options: Sendable {
      /// Whether steps carry their labels.
      package var labels: Bool
      /// The value whose changes ``ScannedStep/changed`` reports.
      package var changed: StatePath?
      /// Whether the trace has redaction rules: a step line holding the placeholder is then
      /// read whole, as only its patch says that a hidden value under ``changed`` changed.
      package var hiddenChanges: Bool
      /// Whether steps carry their `log --json` listings, ``ScannedStep/json``.
      package var json: Bool
      /// Appends a step's lines, each ending in a newline, to the run's text, or nothing; run on
      /// the threads, so a long listing is written in parallel too. `nil` writes none (steps are
      /// still counted).
      package var write: (@Sendable (ScannedStep, inout [UInt8]) -> Void)?
      /// How many threads read; twice as many runs at most are read ahead of the one delivered,
      /// which bounds memory.
      package var threads: Int
      /// How many bytes a run holds, about: enough to share the work, few enough that each run
      /// starts at a keyframe. Tests make it small.
      var runSize = 8 << 20

      /// Options reading labels and watching nothing.
      package init(
        labels: Bool = true, changed: StatePath? = nil, hiddenChanges: Bool = false,
        json: Bool = false,
        write: (@Sendable (ScannedStep, inout [UInt8]) -> Void)? = nil,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
      ) {
        self.write = write
        self.labels = labels
        self.changed = changed
        self.hiddenChanges = hiddenChanges
        self.json = json
        self.threads = max(1, threads)
      }
    }

    /// What one run of lines holds, in trace order.
    package struct Output: Sendable {
      /// The header; in the first run only.
      package var header: TraceHeader?
      /// The lines ``Options/write`` wrote for the run's steps, each ending in a newline.
      package var text: String { String(decoding: bytes, as: UTF8.self) }
      /// ``text`` as UTF-8: what the threads wrote, not copied again.
      package var bytes: [UInt8] = []
      /// How many steps the run holds.
      package var stepCount = 0
      /// How many of them an action sent from outside.
      package var sent = 0
      /// How many have no recorded action.
      package var notReplayable = 0
      /// How many effects the run's steps started.
      package var effectsStarted = 0
      /// How many effect records of each event the run holds.
      package var effectEvents: [EffectEvent.Kind: Int] = [:]
      /// How many keyframes the run checked.
      package var keyframes = 0
      /// The time of the run's last step or end record.
      package var lastTime: Double?
      /// The end record, when the run holds it.
      package var end: TraceEnd?
    }

    /// How a scan ended.
    package enum Outcome: Sendable, Equatable {
      /// Every line was read and checked; every chunk was delivered.
      case complete
      /// Something in the trace needs ``CheckedTraceReader``'s verdict. The chunks delivered
      /// hold every line before `fromLine`, and nothing after.
      case needsCheckedRead(fromLine: Int)
    }

    /// Reads and checks the trace at `path`, handing each run's results to `deliver` in order,
    /// on the calling thread.
    ///
    /// - Throws: ``TraceReadError`` of kind `.missing` when the file cannot be opened; anything
    ///   wrong with its contents is ``Outcome/needsCheckedRead(fromLine:)``.
    package static func run(
      path: String, options: Options, deliver: (Output) -> Void
    ) throws(TraceReadError) -> Outcome {
      let (outcome, _) = try split(
        path: path, threads: options.threads, runSize: options.runSize, stack: 1 << 22
      ) { place, _ in
        RunReader(file: place.file, bounds: place.bounds, isFirst: place.isFirst).read(options)
      } deliver: { deliver($0) }
      return outcome
    }

    /// Reads and checks the trace at `path` as ``run(path:options:deliver:)`` does, but hands
    /// each run to `read` on the thread that reads it, with that thread's number (below
    /// `threads`), to take its records in full: replay's parallel read, which replays each run
    /// where it is read. Returns how the scan ended, and the warning about an incomplete last
    /// line it skipped, in the checked reader's words.
    ///
    /// A crash or gap record is a record like any other here, and a rotated set is read segment
    /// by segment, each cut into runs, every later segment checked to start where the one
    /// before ended. Any problem, a blank line, or an incomplete line but the set's last is
    /// ``Outcome/needsCheckedRead(fromLine:)``, as for `summary`.
    static func runs(
      path: String, threads: Int, runSize: Int,
      read: @escaping @Sendable (Run, _ thread: Int) -> Void
    ) throws(TraceReadError) -> (outcome: Outcome, warning: String?) {
      // Reducers may recurse deeply, and never run on the caller's thread, whose stack is unknown.
      let (outcome, torn) = try split(
        path: path, threads: max(1, threads), runSize: runSize, stack: 8 << 20, inline: false,
        acrossSegments: true
      ) {
        let run = Run(RunReader(file: $0.file, bounds: $0.bounds, isFirst: $0.isFirst))
        run.earlier = $0.earlier
        read(run, $1)
        return run.result
      } deliver: { _ in }
      let warning = torn.map {
        "\($0.path):\($0.line): warning: " + TraceReader.tornLineText(bytes: $0.length)
      }
      return (outcome, warning)
    }

    /// Where one run is: its file, its bounds in it, whether it starts the file, and the file
    /// before it in a rotated set.
    struct Place: Sendable {
      let file: LineFile
      let bounds: Range<Int>
      let isFirst: Bool
      let earlier: LineFile?
    }

    /// Cuts the file at line boundaries into runs, reads each with `read` on `threads` threads
    /// at most (a lone run on the calling thread when `inline`), and delivers the results in
    /// trace order on the calling thread. A rotated set is handed to the checked reader unless
    /// `acrossSegments`, and so is an incomplete last line unless a run skips it: then `torn`
    /// names it, once every run is delivered.
    private static func split<Part: Sendable>(
      path: String, threads: Int, runSize: Int, stack: Int, inline: Bool = true,
      acrossSegments: Bool = false,
      read: @escaping @Sendable (Place, _ thread: Int) -> RunResult<Part>,
      deliver: (Part) -> Void
    ) throws(TraceReadError) -> (outcome: Outcome, torn: (path: String, line: Int, length: Int)?)
    {
      let names = TraceSegments.readingOrder(of: path)
      if names.count > 1, !acrossSegments { return (.needsCheckedRead(fromLine: 1), nil) }
      var places: [Place] = []
      var earlier: LineFile?
      for name in names {
        let file = try LineFile(path: name)
        let size = file.size
        let nominal = max(1, min(size / max(1, runSize), 4096))
        var starts = [0]
        for index in 1..<max(nominal, 1) {
          guard let start = try lineStart(after: size / nominal * index, in: file) else { break }
          if start > starts.last! && start < size { starts.append(start) }
        }
        for (index, start) in starts.enumerated() {
          let end = index + 1 < starts.count ? starts[index + 1] : size
          places.append(
            Place(file: file, bounds: start..<end, isFirst: index == 0, earlier: earlier))
        }
        earlier = file
      }
      let runs = places.count
      let placed = places
      let workers = Workers<Part>(count: runs, window: threads * 2)
      var started: [Thread] = []
      let onThreads = runs > 1 || !inline
      if onThreads {
        for number in 0..<min(threads, runs) {
          let thread = Thread {
            while let index = workers.take() {
              workers.finish(index, read(placed[index], number))
            }
          }
          thread.stackSize = stack
          started.append(thread)
          thread.start()
        }
      }
      var baseLine = 0
      var outcome = Outcome.complete
      // Where the segment read so far ends: the next step, and the state.
      var reached: (nextStep: Int, state: JSONValue)?
      var tornLength = 0
      for index in 0..<runs {
        let result = onThreads ? workers.wait(for: index) : read(places[0], 0)
        if index > 0, places[index].isFirst {
          // A later segment must start where the one before ended; the checked reader words why
          // not, and an incomplete line ends only the last.
          guard let reached, let header = result.header, tornLength == 0,
            header.firstStep == reached.nextStep, header.initialState == reached.state
          else {
            outcome = .needsCheckedRead(fromLine: 1)
            break
          }
          baseLine = 0
        }
        guard let part = result.part else {
          outcome = .needsCheckedRead(fromLine: baseLine + result.linesBeforeStart + 1)
          break
        }
        deliver(part)
        baseLine += result.lineCount
        if let end = result.end { reached = end }
        if result.tornLineLength > 0 { tornLength = result.tornLineLength }
      }
      workers.cancel()
      workers.waitForExit(threads: started.count)
      guard outcome == .complete, tornLength > 0 else { return (outcome, nil) }
      return (outcome, (places[runs - 1].file.path, baseLine + 1, tornLength))
    }

    /// The offset of the first line that starts at or after `offset`, or `nil` past the end.
    private static func lineStart(after offset: Int, in file: LineFile) throws(TraceReadError)
      -> Int?
    {
      var position = offset - 1
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let read = try file.read(into: &buffer, count: buffer.count, at: position)
        guard read > 0 else { return nil }
        let hit = buffer.withUnsafeBytes { memchr($0.baseAddress!, 0x0A, read) }
        if let hit {
          return position + (buffer.withUnsafeBytes { UnsafeRawPointer(hit) - $0.baseAddress! }) + 1
        }
        position += read
      }
    }
  }
}

/// What a thread made of one run.
struct RunResult<Part: Sendable>: Sendable {
  /// What the run's reader made of it; `nil` when something needs the checked reader's verdict.
  var part: Part?
  /// The lines that start in the run's bounds.
  var lineCount = 0
  /// The lines in its bounds before the keyframe it starts from.
  var linesBeforeStart = 0
  /// The header, for a run that starts its file.
  var header: TraceHeader?
  /// For the run that read to the end of its file: the next step and the state there.
  var end: (nextStep: Int, state: JSONValue)?
  /// The length of the file's incomplete last line, skipped, when the run reached it.
  var tornLineLength = 0
}

extension CheckedTraceReader.Scan {
  /// One run of a trace, read record by record on the thread that reads it: replay's share.
  final class Run {
    fileprivate var result = RunResult<Void>()
    private let reader: RunReader
    /// The offset of the run's first line: the keyframe it starts from (0 for the first run).
    private var start = 0
    /// The segment before the run's file, in a rotated set: its last steps come before.
    fileprivate var earlier: LineFile?

    fileprivate init(_ reader: RunReader) { self.reader = reader }

    /// Calls `body` with each record of the run in full, checked, with the states before and
    /// after it; stops at the first problem, which the scan hands to the checked reader.
    func forEachRecord(_ body: (TraceRecord, _ before: JSONValue, _ after: JSONValue) -> Void) {
      // Into a local: `body` may ask for ``stepLines(before:)``, which reads `start`.
      var result = RunResult<Void>()
      if (try? reader.readRecords(into: &result, opened: { start = $0 }, body)) != nil {
        result.part = ()
      }
      self.result = result
    }

    /// The last `count` step lines before the run's first line, oldest first: what a
    /// divergence in its first steps lists. Read backwards from the file, only when asked.
    func stepLines(before count: Int) -> [ArraySlice<UInt8>] {
      var lines = Self.stepLines(count, before: start, in: reader.file)
      // A segment's first steps follow the last of the segment before.
      if lines.count < count, let earlier {
        lines = Self.stepLines(count - lines.count, before: earlier.size, in: earlier) + lines
      }
      return lines
    }

    /// The last `count` step lines of `file` before offset `start`, oldest first.
    private static func stepLines(_ count: Int, before start: Int, in file: LineFile)
      -> [ArraySlice<UInt8>]
    {
      guard count > 0, start > 0 else { return [] }
      let prefix = Array(#"{"kind":"step""#.utf8)
      var window = 1 << 16
      while true {
        let from = max(0, start - window)
        var bytes = [UInt8](repeating: 0, count: start - from)
        let read = (try? file.read(into: &bytes, count: bytes.count, at: from)) ?? 0
        // The first line of the window may have begun before it.
        let lines = bytes[..<read].split(separator: 10).dropFirst(from > 0 ? 1 : 0)
        let steps = lines.filter { $0.starts(with: prefix) }
        if steps.count >= count || from == 0 || read < bytes.count {
          return Array(steps.suffix(count))
        }
        window *= 4
      }
    }
  }
}

/// Hands runs to threads, keeps their results until delivered, and bounds how far ahead they go.
// unchecked: every var is read and written under `condition`
private final class Workers<Part: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private let window: Int
  private var next = 0
  private var delivered = 0
  private var results: [RunResult<Part>?]
  private var cancelled = false
  private var exited = 0

  init(count: Int, window: Int) {
    self.count = count
    self.window = window
    results = Array(repeating: nil, count: count)
  }

  func take() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while !cancelled, next < count, next >= delivered + window { condition.wait() }
    guard !cancelled, next < count else {
      exited += 1
      condition.broadcast()
      return nil
    }
    next += 1
    return next - 1
  }

  func finish(_ index: Int, _ result: RunResult<Part>) {
    condition.lock()
    results[index] = result
    condition.broadcast()
    condition.unlock()
  }

  func wait(for index: Int) -> RunResult<Part> {
    condition.lock()
    defer { condition.unlock() }
    while results[index] == nil { condition.wait() }
    let result = results[index]!
    results[index] = nil
    delivered = index + 1
    condition.broadcast()
    return result
  }

  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  func waitForExit(threads: Int) {
    condition.lock()
    while exited < threads { condition.wait() }
    condition.unlock()
  }
}

/// Reads and checks one run of lines: from the first keyframe in its bounds (the header, for
/// the first run) to the first keyframe at or after its end, which it checks and the next run
/// starts from.
private struct RunReader {
  let file: LineFile
  let bounds: Range<Int>
  let isFirst: Bool

  struct Failure: Error {}

  private func next(_ lines: FileLines) throws(Failure) -> FileLines.Line? {
    do {
      return try lines.next()
    } catch {
      throw Failure()
    }
  }

  /// Reads the run's first line, the header or the keyframe it starts from, and returns the
  /// checks from there, the header and the line's offset; `nil` when no keyframe starts in it.
  private func open(_ lines: FileLines, counting lineCount: inout Int, before: inout Int)
    throws(Failure) -> (checker: TraceChecker, header: TraceHeader?, offset: Int)?
  {
    if isFirst {
      guard let first = try next(lines), !first.isBlank else { throw Failure() }
      lineCount += 1
      guard
        let header = try? TraceHeader(
          parsingFirstLine: first.slice, path: file.path, line: lineCount)
      else { throw Failure() }
      return (TraceChecker(header: header), header, 0)
    }
    while true {
      guard let line = try next(lines), line.offset < bounds.upperBound else { return nil }
      lineCount += 1
      guard case .keyframe = line.head else { continue }
      guard let record = try? TraceRecord(parsingLine: line.slice, path: file.path, line: 0),
        case .keyframe = record
      else { throw Failure() }
      var checker = TraceChecker.fromFirstKeyframe
      guard (try? checker.check(record, path: file.path, line: 0)) != nil else { throw Failure() }
      before = lineCount - 1
      return (checker, nil, line.offset)
    }
  }

  /// The line ends the run: the first keyframe at or after its end, which the next run starts
  /// from and this one checks last. Told apart by its first bytes, as the next run finds it.
  private func isLast(_ line: FileLines.Line) -> Bool {
    guard line.offset >= bounds.upperBound, case .keyframe = line.head else { return false }
    return true
  }

  /// Reads every record in full: ``CheckedTraceReader/Scan/Run/forEachRecord(_:)``.
  func readRecords(
    into result: inout RunResult<Void>, opened: (_ offset: Int) -> Void,
    _ body: (TraceRecord, JSONValue, JSONValue) -> Void
  ) throws(Failure) {
    let lines = FileLines(file: file, from: bounds.lowerBound)
    guard let first = try open(
      lines, counting: &result.lineCount, before: &result.linesBeforeStart)
    else { return }
    var checker = first.checker
    result.header = first.header
    opened(first.offset)
    while let line = try next(lines) {
      if line.offset < bounds.upperBound { result.lineCount += 1 }
      guard !line.isBlank else { throw Failure() }
      let isLast = isLast(line)
      let parsed: TraceRecord?
      do {
        parsed = try TraceRecord(parsingLine: line.slice, path: file.path, line: 0)
      } catch {
        throw Failure()
      }
      guard let record = parsed else {
        if isLast { throw Failure() }
        continue
      }
      let before = checker.state
      guard (try? checker.check(record, path: file.path, line: 0)) != nil else { throw Failure() }
      if isLast { return }
      body(record, before, checker.state)
    }
    result.end = (checker.nextStep, checker.state)
    // The end of the file: an incomplete last line is skipped, and reported as the checked
    // reader reports it; one of spaces is its to judge.
    guard lines.tornLineLength > 0 else { return }
    if lines.tornBytesAreBlank { throw Failure() }
    result.tornLineLength = lines.tornLineLength
  }

  /// Whether `bytes` hold the placeholder of a redacted value, `"<redacted>"`.
  private static func holdsPlaceholder(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let needle = placeholderBytes
    var start = 0
    // By memchr and memcmp, as `TraceIndex` looks for `"types":`.
    while start + needle.count <= bytes.count,
      let hit = memchr(base + start, Int32(needle[0]), bytes.count - needle.count + 1 - start)
    {
      let quote = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
      if memcmp(base + quote, needle, needle.count) == 0 { return true }
      start = quote + 1
    }
    return false
  }

  private static let placeholderBytes = Array(#""<redacted>""#.utf8)

  /// Reads the run for `summary` and `log`: step lines by their patches alone where it can.
  func read(_ options: CheckedTraceReader.Scan.Options)
    -> RunResult<CheckedTraceReader.Scan.Output>
  {
    var result = RunResult<CheckedTraceReader.Scan.Output>()
    var chunk = CheckedTraceReader.Scan.Output()
    if (try? read(options, into: &chunk, &result)) != nil { result.part = chunk }
    return result
  }

  private func read(
    _ options: CheckedTraceReader.Scan.Options, into chunk: inout CheckedTraceReader.Scan.Output,
    _ result: inout RunResult<CheckedTraceReader.Scan.Output>
  ) throws(Failure) {
    let path = file.path
    let lines = FileLines(file: file, from: bounds.lowerBound)
    guard let opened = try open(
      lines, counting: &result.lineCount, before: &result.linesBeforeStart)
    else { return }
    var checker = opened.checker
    chunk.header = opened.header
    var before = options.changed?.resolve(in: checker.state)
    let readsPlaceholders = options.changed != nil && options.hiddenChanges
    let pointers = StepLineScanner.PointerCache()
    var text: [UInt8] = []
    defer { chunk.bytes = text }
    while let line = try next(lines) {
      if line.offset < bounds.upperBound { result.lineCount += 1 }
      guard !line.isBlank else { throw Failure() }
      let isLast = isLast(line)
      var step: ScannedStep?
      // Hidden values the step changed in place: only a line holding the placeholder can say so.
      var hidden: [JSONPointer] = []
      let readWhole = readsPlaceholders && Self.holdsPlaceholder(line.bytes)
      if !readWhole, let (fast, shape, scanner) = StepLineScanner.scanShape(
        line.bytes, labels: options.labels, json: options.json, pointers: pointers)
      {
        // A learnt shape whose patch changes members: applied without building the patch.
        let holes = pointers.shapes.holes
        guard checker.checkStep(index: fast.index, applying: {
          scanner.applyMembers(shape, holes: holes, to: &$0)
        })
        else { throw Failure() }
        step = fast
      } else if !readWhole, let (fast, patch) = StepLineScanner.scan(
        line.bytes, labels: options.labels, json: options.json, pointers: pointers)
      {
        guard (try? checker.checkStep(index: fast.index, patch: patch, path: path, line: 0)) != nil
        else { throw Failure() }
        step = fast
      } else {
        let parsed: TraceRecord?
        do {
          parsed = try TraceRecord(parsingLine: line.slice, path: path, line: 0)
        } catch {
          throw Failure()
        }
        guard let record = parsed else {
          if isLast { throw Failure() }
          continue
        }
        guard (try? checker.check(record, path: path, line: 0)) != nil else { throw Failure() }
        switch record {
        case .crash, .gap:
          // Rare records with lines of their own in `log` and `summary`: the checked reader
          // reports them.
          throw Failure()
        default: break
        }
        if case .step(let full) = record {
          step = options.json ? ScannedStep(listing: full) : ScannedStep(full)
          if readWhole { hidden = StateChange.redactedChanges(in: full.patch) }
        } else if case .keyframe = record {
          chunk.keyframes += 1
        } else if case .effect(let event) = record {
          chunk.effectEvents[event.event, default: 0] += 1
        } else if case .end(let end) = record {
          chunk.end = end
          chunk.lastTime = end.time
        }
      }
      if let pointer = options.changed {
        let after = pointer.resolve(in: checker.state)
        if step != nil {
          let redacted = StateChange.redactedChanges(hidden, under: pointer, in: checker.state)
          step!.changed = after != before || !redacted.isEmpty
          if step!.changed {
            step!.change = ScannedStep.Change(before: before, after: after, redacted: redacted)
          }
        }
        before = after
      }
      if isLast { return }
      guard let step else { continue }
      chunk.stepCount += 1
      chunk.lastTime = step.time
      if case .send = step.origin { chunk.sent += 1 }
      if !step.isReplayable { chunk.notReplayable += 1 }
      chunk.effectsStarted += step.effects.count
      options.write?(step, &text)
    }
    // The end of the file: an incomplete last line is the checked reader's to report.
    if lines.tornLineLength > 0 { throw Failure() }
  }
}
