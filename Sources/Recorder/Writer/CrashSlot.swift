import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one recording leaves for ``CrashHandler``: which step the app's thread is reducing,
/// that step's action already encoded, and buffers the crash record is built in without
/// allocating.
///
/// The app's thread fills the action before each reduce and then sets ``isReducing``; the
/// handler reads them only on that same thread (the crash happened while reducing) or after
/// that thread stopped (the crash thread, while the handler waits).
// unchecked: a signal handler reads it and can take no lock; see above for who writes what when
final class CrashSlot: @unchecked Sendable {
  /// How the crash thread reaches the recording.
  struct Control: Sendable {
    /// Waits until the writer wrote every event handed over, then stops it writing more.
    var drainAndSeal: @Sendable () -> Void
    /// Writes complete lines through the recording's sink, and syncs it.
    var write: @Sendable ([UInt8]) -> Void
    /// `"action":…,"label":…` for the action being reduced, encoded on the crash thread.
    var encodeAction: @Sendable () -> [UInt8]?
  }

  let isActive = Atomic<Bool>(false)
  /// Whether the slot may serve a new recording; guarded by ``CrashHandler``'s lock.
  var isFree = false
  /// Set by the app's thread while it reduces ``step``.
  private let isReducing = Atomic<Bool>(false)
  private var step = 0
  private var thread: UInt = 0
  private var control: Control?
  private var path: UnsafeMutablePointer<CChar>?
  private var start = timespec()
  /// `"action":…,"label":…`, the members of the step's action, as the crash record holds them.
  private var action: UnsafeMutablePointer<UInt8>
  private var actionCapacity: Int
  private var actionCount = 0
  /// Room for a crash record naming the step: the action's bytes and `lineOverhead` more.
  private var line: UnsafeMutablePointer<UInt8>
  /// Room for a crash record naming no step, never reallocated: another thread may be growing
  /// `line` while one crashes.
  private let shortLine: UnsafeMutablePointer<UInt8>
  private static var lineOverhead: Int { 192 }

  init() {
    actionCapacity = 256
    action = .allocate(capacity: actionCapacity)
    line = .allocate(capacity: actionCapacity + Self.lineOverhead)
    shortLine = .allocate(capacity: Self.lineOverhead)
  }

  func activate(path: String?, start: timespec, control: Control) {
    if let old = self.path { free(old) }
    self.path = path.map { strdup($0) }
    self.start = start
    self.control = control
    actionCount = 0
    isReducing.store(false, ordering: .relaxed)
    isActive.store(true, ordering: .releasing)
  }

  /// Holds the encoded action a crash record names; on the crash thread, while the crashed
  /// thread waits in the handler.
  private func setAction(_ bytes: [UInt8]) {
    if bytes.count > actionCapacity {
      // Grown on the crash thread, never in a handler; the old buffers go only after the new
      // ones are in place.
      let newCapacity = max(bytes.count, 2 * actionCapacity)
      let (oldAction, oldLine) = (action, line)
      action = .allocate(capacity: newCapacity)
      line = .allocate(capacity: newCapacity + Self.lineOverhead)
      actionCapacity = newCapacity
      oldAction.deallocate()
      oldLine.deallocate()
    }
    bytes.withUnsafeBufferPointer { action.update(from: $0.baseAddress!, count: $0.count) }
    actionCount = bytes.count
  }

  // MARK: The app's thread

  /// The app's thread is about to reduce `step`.
  @inline(__always)
  func beginReducing(step: Int) {
    self.step = step
    thread = currentThreadID()
    isReducing.store(true, ordering: .releasing)
  }

  /// The reduce returned.
  @inline(__always)
  func endReducing() {
    isReducing.store(false, ordering: .releasing)
  }

  // MARK: The crash

  /// On the crash thread: waits for the writer to write what it was handed, then writes the
  /// crash record through the sink.
  func writeThroughSink(signal: Int32, thread crashing: UInt, time: timespec) {
    guard let control else { return }
    if isReducing.load(ordering: .acquiring) && thread == crashing,
      let bytes = control.encodeAction()
    {
      setAction(bytes)
    }
    control.drainAndSeal()
    let (buffer, count) = buildLine(signal: signal, thread: crashing, time: time)
    control.write(Array(UnsafeBufferPointer(start: buffer, count: count)))
  }

  /// In the signal handler, when the crash thread did not answer: appends the crash record to
  /// the file at the trace's path with `open(2)` and `write(2)` alone.
  func writeDirectly(signal: Int32, thread crashing: UInt, time: timespec) {
    guard let path else { return }
    let (buffer, count) = buildLine(signal: signal, thread: crashing, time: time)
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return }
    var offset = 0
    while offset < count {
      let written = write(descriptor, buffer + offset, count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        break
      }
      offset += written
    }
    _ = close(descriptor)
  }

  /// Builds the crash record's line in a preallocated buffer; allocates nothing.
  ///
  /// The record names the step only when the crashing thread is the one reducing it.
  private func buildLine(
    signal: Int32, thread crashing: UInt, time: timespec
  ) -> (UnsafeMutablePointer<UInt8>, Int) {
    let namesStep = isReducing.load(ordering: .acquiring) && thread == crashing
    var out = ByteWriter(start: namesStep ? line : shortLine)
    out.append(#"{"kind":"crash""#)
    if namesStep {
      out.append(#","step":"#)
      out.appendDecimal(UInt64(step))
    }
    out.append(#","time":"#)
    var seconds = time.tv_sec - start.tv_sec
    var nanoseconds = time.tv_nsec - start.tv_nsec
    if nanoseconds < 0 {
      seconds -= 1
      nanoseconds += 1_000_000_000
    }
    if seconds < 0 { (seconds, nanoseconds) = (0, 0) }
    out.appendDecimal(UInt64(seconds))
    out.append(".")
    out.appendDecimal(UInt64(nanoseconds), width: 9)
    if namesStep {
      // Without the action when the crash thread could not encode it (the handler's own write).
      if actionCount > 0 {
        out.append(",")
        out.appendBytes(action, count: actionCount)
      }
      out.append(#","finished":false"#)
    }
    out.append(#","signal":""#)
    out.append(signalName(signal))
    out.append("\"}\n")
    return (out.start, out.count)
  }
}

/// Appends to raw memory the caller made big enough; no allocation, no locks.
private struct ByteWriter {
  let start: UnsafeMutablePointer<UInt8>
  var count = 0

  init(start: UnsafeMutablePointer<UInt8>) { self.start = start }

  mutating func append(_ text: StaticString) {
    appendBytes(UnsafeMutablePointer(mutating: text.utf8Start), count: text.utf8CodeUnitCount)
  }

  mutating func appendBytes(_ bytes: UnsafeMutablePointer<UInt8>, count length: Int) {
    (start + count).update(from: bytes, count: length)
    count += length
  }

  /// `value` in decimal, padded with zeros to `width` digits.
  mutating func appendDecimal(_ value: UInt64, width: Int = 1) {
    var digits = 1
    var rest = value / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    digits = max(digits, width)
    var remaining = value
    for position in stride(from: digits - 1, through: 0, by: -1) {
      start[count + position] = UInt8(ascii: "0") + UInt8(remaining % 10)
      remaining /= 10
    }
    count += digits
  }
}

/// The name of a signal the crash handler catches, as a `crash` record writes it.
package func signalName(_ signal: Int32) -> StaticString {
  switch signal {
  case SIGTRAP: "SIGTRAP"
  case SIGILL: "SIGILL"
  case SIGSEGV: "SIGSEGV"
  case SIGBUS: "SIGBUS"
  case SIGABRT: "SIGABRT"
  case SIGFPE: "SIGFPE"
  default: "unknown"
  }
}

/// The calling thread, as `pthread_self()` names it.
@inline(__always)
func currentThreadID() -> UInt {
  #if canImport(Glibc)
    UInt(pthread_self())
  #else
    UInt(bitPattern: pthread_self())
  #endif
}

/// A flag shared between threads: set once, read often.
final class AtomicFlag: Sendable {
  private let value = Atomic<Bool>(false)

  init() {}

  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}
