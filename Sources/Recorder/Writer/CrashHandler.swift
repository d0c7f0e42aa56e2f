import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a `crash` record when the process dies of a signal: a trap (`SIGTRAP`, `SIGILL`, as a
/// Swift precondition or a force-unwrap of `nil` raises), a bad access (`SIGSEGV`, `SIGBUS`),
/// an abort (`SIGABRT`) or an arithmetic fault (`SIGFPE`).
///
/// Keep early, write late. Before a recording reducer reduces step N, the app's thread keeps a
/// copy of step N's action and marks its recorder's ``CrashSlot`` as reducing N. The signal
/// handler allocates nothing and takes no lock: it stores the signal, writes one byte to a pipe
/// to wake this type's thread, and waits on another pipe (`poll`) for at most ``waitLimit``.
/// That thread, which did not crash, encodes the kept action into the slot, drains each
/// recorder's writer (every step handed over is encoded and written, with the locks and memory
/// that needs) and writes the crash record through the sink. If it does not answer in time (it
/// waits for a lock the crashed thread holds), the handler writes the crash record itself:
/// `open(2)` of the trace path with `O_APPEND`, `write(2)` of bytes built in preallocated
/// memory, with the action only if the crash thread had encoded it. Either way it then gives
/// the signal back to whoever handled it before (the Swift runtime's backtracer, or the default
/// action), so the process still dies as it would have.
// unchecked: a signal handler reads the published slots through a raw pointer, lock-free
final class CrashHandler: @unchecked Sendable {
  static let shared = CrashHandler()

  /// How long the handler waits for the crash thread before writing the record alone.
  // Computed, not stored: a static stored property is initialized on first use, with a lock.
  static var waitLimit: Int32 { 5_000 }  // milliseconds

  private let lock = Mutex<[CrashSlot]>([])
  /// Every slot ever made, as a C array the handler can read without a lock: replaced (and
  /// the old one kept, never freed) when a slot is added. Slots are reused, never freed.
  private let published = Atomic<UnsafeMutableRawPointer?>(nil)
  private let isInstalled = Atomic<Bool>(false)
  /// 0: no crash; 1: a thread is handling one; 2: handled.
  let phase = Atomic<Int>(0)
  let signal = Atomic<Int32>(0)
  let crashingThread = Atomic<UInt>(0)
  let crashSeconds = Atomic<Int>(0)
  let crashNanoseconds = Atomic<Int>(0)
  private var wake: (read: Int32, write: Int32) = (-1, -1)
  private var reply: (read: Int32, write: Int32) = (-1, -1)
  /// The actions in place before ours, by signal number, to hand the signal on to.
  private let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

  private init() {
    previous.initialize(repeating: sigaction(), count: 65)
  }

  /// A slot for a new recording, active until ``release(_:)``; installs the handler the first
  /// time.
  func makeSlot(path: String?, start: timespec, control: CrashSlot.Control) -> CrashSlot {
    let slot = lock.withLock { slots -> CrashSlot in
      if let free = slots.first(where: { !$0.isActive.load(ordering: .acquiring) && $0.isFree }) {
        free.isFree = false
        return free
      }
      let slot = CrashSlot()
      slots.append(slot)
      let table = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(
        capacity: slots.count + 1)
      table[0] = UnsafeMutableRawPointer(bitPattern: slots.count)
      for (position, slot) in slots.enumerated() {
        table[position + 1] = Unmanaged.passRetained(slot).toOpaque()
      }
      published.store(UnsafeMutableRawPointer(table), ordering: .releasing)
      return slot
    }
    slot.activate(path: path, start: start, control: control)
    installIfNeeded()
    return slot
  }

  /// Ends a slot's recording: a crash from now on leaves it alone.
  func deactivate(_ slot: CrashSlot) {
    slot.isActive.store(false, ordering: .releasing)
  }

  /// Ends a slot's recording, whose pipeline is gone; the slot may serve another one.
  func release(_ slot: CrashSlot) {
    lock.withLock { _ in
      slot.isActive.store(false, ordering: .releasing)
      slot.isFree = true
    }
  }

  /// The slots, read without a lock (in the handler too).
  func forEachSlot(_ body: (CrashSlot) -> Void) {
    guard let table = published.load(ordering: .acquiring) else { return }
    let entries = table.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    let count = Int(bitPattern: entries[0])
    for position in 0..<count {
      guard let raw = entries[position + 1] else { continue }
      body(Unmanaged<CrashSlot>.fromOpaque(raw).takeUnretainedValue())
    }
  }

  private func installIfNeeded() {
    let first = isInstalled.compareExchange(
      expected: false, desired: true, ordering: .acquiringAndReleasing)
    guard first.exchanged else { return }
    var wakePipe: [Int32] = [-1, -1]
    var replyPipe: [Int32] = [-1, -1]
    guard pipe(&wakePipe) == 0, pipe(&replyPipe) == 0 else { return }
    for descriptor in wakePipe + replyPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    wake = (wakePipe[0], wakePipe[1])
    reply = (replyPipe[0], replyPipe[1])
    let thread = Thread { [self] in waitForCrash() }
    thread.name = "tca-replay crash"
    thread.start()
    CrashSignals.install(crashSignalHandler, keepingPrevious: previous)
  }

  /// The crash thread: sleeps in `read(2)` until the handler writes to the wake pipe.
  private func waitForCrash() {
    var byte: UInt8 = 0
    while true {
      let count = read(wake.read, &byte, 1)
      if count == 1 { break }
      if count < 0 && errno == EINTR { continue }
      return
    }
    let signal = self.signal.load(ordering: .acquiring)
    let thread = crashingThread.load(ordering: .acquiring)
    let time = timespec(
      tv_sec: crashSeconds.load(ordering: .acquiring),
      tv_nsec: crashNanoseconds.load(ordering: .acquiring))
    forEachSlot { slot in
      guard slot.isActive.load(ordering: .acquiring) else { return }
      slot.writeThroughSink(signal: signal, thread: thread, time: time)
    }
    byte = 1
    _ = write(reply.write, &byte, 1)
  }

  /// What the signal handler does; async-signal-safe: atomics, `clock_gettime`, `write`,
  /// `poll`, `open`, `close`, `nanosleep`, `sigaction`, `raise`.
  fileprivate func handle(
    _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?
  ) {
    if phase.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
      var now = timespec()
      readSessionClock(&now)
      crashSeconds.store(now.tv_sec, ordering: .releasing)
      crashNanoseconds.store(now.tv_nsec, ordering: .releasing)
      crashingThread.store(currentThreadID(), ordering: .releasing)
      self.signal.store(signal, ordering: .releasing)
      var byte: UInt8 = 1
      var answered = false
      if write(wake.write, &byte, 1) == 1 {
        var descriptor = pollfd(fd: reply.read, events: Int16(POLLIN), revents: 0)
        while true {
          let ready = poll(&descriptor, 1, Self.waitLimit)
          if ready < 0 && errno == EINTR { continue }
          answered = ready == 1
          break
        }
      }
      if !answered {
        let thread = currentThreadID()
        forEachSlot { slot in
          guard slot.isActive.load(ordering: .acquiring) else { return }
          slot.writeDirectly(signal: signal, thread: thread, time: now)
        }
      }
      phase.store(2, ordering: .releasing)
    } else {
      // Another thread crashed first: let it finish writing before this one ends the process.
      var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
      var pauses = 0
      while phase.load(ordering: .acquiring) == 1, pauses < Int(Self.waitLimit) + 500 {
        nanosleep(&pause, nil)
        pauses += 1
      }
    }
    // Hand the signal on: a fault re-executes the instruction on return and meets the
    // previous action; a trap (which returns past the instruction) or a raised signal is
    // raised again, and delivered once the handler returns.
    sigaction(signal, previous + Int(signal), nil)
    let code = info?.pointee.si_code ?? 0
    if signal == SIGTRAP || code <= 0 {
      raise(signal)
    }
  }
}

/// The signal handler installed for ``CrashSignals/all``.
private func crashSignalHandler(
  _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
  CrashHandler.shared.handle(signal, info)
}

/// Reads the clock ``SessionClock`` reads, so that a crash's time continues the steps' times.
func readSessionClock(_ time: inout timespec) {
  #if os(Linux)
    clock_gettime(CLOCK_BOOTTIME, &time)
  #else
    clock_gettime(CLOCK_MONOTONIC_RAW, &time)
  #endif
}
