import Synchronization
import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which step each replay thread is reducing, so that a replay host that crashes says where.
///
/// A reducer that traps (a force-unwrap of `nil`, a failed precondition) ends the process; no
/// Swift code can catch it. So the host arms this before it replays: ``StepEngine`` marks the
/// step each thread is about to reduce, and a handler of the signals a crash raises writes one
/// `crash` line to `tca-replay` naming that thread's step, then hands the signal on to whoever
/// handled it before (Swift's backtracer, or the default action), so the process dies as it
/// would have, with its backtrace. Everything the handler touches is allocated beforehand, and
/// it calls only atomics, `write`, `nanosleep`, `sigaction`, `raise` and `pthread_getspecific`.
///
/// Unarmed (a replay in the test process, with ``Replayer`` or `assertReplay`), marking a step
/// costs a load and a branch: an in-process replay cannot outlive a trap anyway.
enum CrashSite {
  /// What the signal handler reads; one allocation, made before any handler is installed.
  private struct Storage {
    /// The host's protocol channel; -1 until armed.
    var channel: Int32 = -1
    var isArmed = false
    /// `{"kind":"crash","id":<id>` for the request being answered; empty between requests.
    var prefixLength = 0
  }

  /// A thread's slot: the step it is reducing (-1: none), and the signal stack it was given.
  private struct Slot {
    var step = -1
    var signalStack: UnsafeMutableRawPointer?
  }

  /// 0 until a thread crashes, 1 while the first crashing thread writes its line, 2 once it
  /// has: the first reports, and the others wait for its line before they end the process.
  private static let phase = Atomic<Int>(0)
  /// How long a later crashing thread waits for the first one's line, in milliseconds.
  private static let waitLimit = 2_000

  private static let capacity = 512
  nonisolated(unsafe) private static let storage: UnsafeMutablePointer<Storage> = {
    let storage = UnsafeMutablePointer<Storage>.allocate(capacity: 1)
    storage.initialize(to: Storage())
    return storage
  }()
  nonisolated(unsafe) private static let prefix = UnsafeMutablePointer<UInt8>.allocate(
    capacity: capacity)
  nonisolated(unsafe) private static let line = UnsafeMutablePointer<UInt8>.allocate(
    capacity: capacity)
  /// The handlers installed before ours, by signal number, to hand the signal on to.
  nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(
    capacity: 65)
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, { raw in
      guard let raw else { return }
      let slot = raw.assumingMemoryBound(to: Slot.self)
      if let stack = slot.pointee.signalStack {
        var disabled = stack_t()
        disabled.ss_flags = Int32(SS_DISABLE)
        sigaltstack(&disabled, nil)
        free(stack)
      }
      slot.deallocate()
    })
    return key
  }()

  /// Room for the handler, and for the backtracer it hands a stack overflow on to.
  private static let signalStackSize = 256 << 10

  /// Installs the crash handlers, which report on `channel`. Once per process.
  static func arm(channel: Int32) {
    _ = key
    storage.pointee.channel = channel
    guard !storage.pointee.isArmed else { return }
    storage.pointee.isArmed = true
    CrashSignals.install(handler, keepingPrevious: previous)
  }

  /// Says which request a crash from now on interrupts: `id` as the request carried it.
  static func begin(request id: JSONValue) {
    let bytes = Array(#"{"kind":"crash","id":"#.utf8) + id.jsonBytes
    storage.pointee.prefixLength = 0
    guard bytes.count < capacity - 64 else { return }
    for (offset, byte) in bytes.enumerated() { prefix[offset] = byte }
    storage.pointee.prefixLength = bytes.count
  }

  /// No request is being answered: a crash now has no one to report to.
  static func end() {
    storage.pointee.prefixLength = 0
  }

  /// Marks the step this thread is about to reduce; -1 when it is done with it.
  @inline(__always)
  static func reducing(_ step: Int) {
    guard storage.pointee.isArmed else { return }
    slot().pointee.step = step
  }

  /// This thread's slot, made on first use with a signal stack, so that even a stack overflow
  /// (a reducer recursing without end) can be reported.
  private static func slot() -> UnsafeMutablePointer<Slot> {
    if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: Slot.self) }
    let slot = UnsafeMutablePointer<Slot>.allocate(capacity: 1)
    slot.initialize(to: Slot())
    var current = stack_t()
    if sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0,
      let memory = malloc(signalStackSize)
    {
      var stack = stack_t()
      stack.ss_sp = memory
      stack.ss_size = signalStackSize
      if sigaltstack(&stack, nil) == 0 { slot.pointee.signalStack = memory } else { free(memory) }
    }
    pthread_setspecific(key, slot)
    return slot
  }

  private static let handler:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void =
      { signal, info, _ in
        if CrashSite.phase.compareExchange(
          expected: 0, desired: 1, ordering: .acquiringAndReleasing
        ).exchanged {
          CrashSite.report(signal)
          CrashSite.phase.store(2, ordering: .releasing)
        } else {
          // Threads replaying side by side can crash together; ending the process now could
          // lose the first one's line.
          var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
          for _ in 0..<CrashSite.waitLimit
          where CrashSite.phase.load(ordering: .acquiring) == 1 {
            nanosleep(&pause, nil)
          }
        }
        // Hand on: the previous action (Swift's backtracer, or death) takes the signal. A fault
        // happens again when the handler returns; a trap (which returns past the instruction)
        // or a signal sent (`abort`, `kill`) is sent again.
        sigaction(signal, CrashSite.previous + Int(signal), nil)
        if signal == SIGTRAP || (info?.pointee.si_code ?? 0) <= 0 { raise(signal) }
      }

  /// Writes `{"kind":"crash","id":…,"step":…,"signal":…}` with async-signal-safe calls only.
  private static func report(_ signal: Int32) {
    let state = storage
    guard state.pointee.channel >= 0, state.pointee.prefixLength > 0 else { return }
    var length = state.pointee.prefixLength
    for offset in 0..<length { line[offset] = prefix[offset] }
    func append(_ text: StaticString) {
      text.withUTF8Buffer { for byte in $0 { line[length] = byte; length += 1 } }
    }
    func append(_ number: Int) {
      var value = number
      if value < 0 { line[length] = UInt8(ascii: "-"); length += 1; value = -value }
      var digits = 1
      var scale = 1
      while value / scale >= 10 { scale *= 10; digits += 1 }
      for _ in 0..<digits {
        line[length] = UInt8(ascii: "0") + UInt8(value / scale % 10)
        length += 1
        scale /= 10
      }
    }
    if let raw = pthread_getspecific(key) {
      let step = raw.assumingMemoryBound(to: Slot.self).pointee.step
      if step >= 0 {
        append(#","step":"#)
        append(step)
      }
    }
    append(#","signal":"#)
    append(Int(signal))
    append("}\n")
    var offset = 0
    while offset < length {
      let written = write(state.pointee.channel, line + offset, length - offset)
      if written < 0, errno == EINTR { continue }
      if written <= 0 { break }
      offset += written
    }
  }
}
