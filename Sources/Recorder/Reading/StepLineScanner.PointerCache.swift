import TraceJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StepLineScanner {
  /// The pointers of recent patches, by their text: a trace's patches name few paths, and
  /// parsing one costs more than finding it. It also holds the room a scanner needs for keys,
  /// so that one thread's lines share it.
  final class PointerCache {
    var texts: [[UInt8]] = []
    var pointers: [JSONPointer] = []
    var next = 0
    /// Room for every key a scan notes at once: 32 per object, 64 objects deep.
    let keys = UnsafeMutablePointer<(start: Int, end: Int)>.allocate(
      capacity: StepLineScanner.maximumKeysPerObject * StepLineScanner.maximumDepth)

    /// The shapes of lines read in full, to read lines of the same shape by comparing bytes.
    let shapes = StepLineShapes()
    /// Where each operation's value is in the line the patch was last read from.
    var operationValues: [Range<Int>?] = []
    /// How many numbers learning shapes has looked up among a line's holes: the tests keep it
    /// within a shape's holes per line, whatever the patch.
    var holeLookups = 0

    init() {}

    deinit { keys.deallocate() }

    /// Actions written as objects that a scan checked, with how many values each holds: a
    /// trace's actions repeat, and comparing bytes costs less than checking them.
    var actions: [(bytes: [UInt8], values: Int)] = []
    var nextAction = 0

    /// The length and value count of a checked action that the bytes at `start` begin with.
    /// An object ends at its closing brace, so one that the bytes begin with is the whole value.
    func knownAction(at start: UnsafePointer<UInt8>, _ available: Int)
      -> (length: Int, values: Int)?
    {
      for action in actions where action.bytes.count <= available {
        let same = action.bytes.withUnsafeBufferPointer {
          memcmp($0.baseAddress!, start, $0.count) == 0
        }
        if same { return (action.bytes.count, action.values) }
      }
      return nil
    }

    func remember(action: UnsafeBufferPointer<UInt8>, values: Int) {
      guard action.count <= 256 else { return }
      if actions.count < 16 {
        actions.append((Array(action), values))
      } else {
        actions[nextAction] = (Array(action), values)
        nextAction = (nextAction + 1) % 16
      }
    }

    func pointer(_ text: UnsafeBufferPointer<UInt8>) -> JSONPointer? {
      for (index, known) in texts.enumerated() where known.count == text.count {
        if known.withUnsafeBufferPointer({ memcmp($0.baseAddress!, text.baseAddress!, text.count) })
          == 0
        {
          return pointers[index]
        }
      }
      guard let pointer = JSONPointer(String(decoding: text, as: UTF8.self)) else { return nil }
      if texts.count < 32 {
        texts.append(Array(text))
        pointers.append(pointer)
      } else {
        texts[next] = Array(text)
        pointers[next] = pointer
        next = (next + 1) % 32
      }
      return pointer
    }
  }
}
