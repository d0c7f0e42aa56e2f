import TraceJSON

/// Where the redaction rules hid values in the recorded state, and a digest of each real value:
/// how the recorder tells a hidden value that changed in place, whose JSON stays `"<redacted>"`.
///
/// Kept in the recorder's memory only, never written: a digest of a 4-digit PIN would give the
/// PIN away. The digests are `Hasher`'s, seeded anew in every process. A step that changed a
/// hidden value in place gets a `test` and a `replace` of the placeholder with itself
/// (``changes(after:)``): the change is said, the value is not.
struct HiddenValues {
  /// One hidden value: a digest of its real JSON, and which tokens of its path are array
  /// indices (bit `n` for token `n`), to follow it when elements before it come and go.
  struct Place: Equatable {
    var digest: Int
    var indexLevels: UInt64
  }

  /// The hidden values of the state, by path.
  private(set) var places: [JSONPointer: Place] = [:]

  /// Notes hidden values while a part of a state is redacted, at their paths in the state.
  final class Collector {
    private var tokens: [String]
    private var indexLevels: UInt64
    /// The hidden values found, by path.
    private(set) var found: [JSONPointer: Place] = [:]

    /// A collector for the part of a state at `location`, whose array indices `indexLevels`
    /// marks.
    init(location: [String] = [], indexLevels: UInt64 = 0) {
      tokens = location
      self.indexLevels = indexLevels
    }

    func enter(_ token: String, isIndex: Bool) {
      if isIndex, tokens.count < 64 { indexLevels |= 1 << UInt64(tokens.count) }
      tokens.append(token)
    }

    func leave() {
      tokens.removeLast()
      if tokens.count < 64 { indexLevels &= (1 << UInt64(tokens.count)) &- 1 }
    }

    func note(_ value: JSONValue) {
      var hasher = Hasher()
      hasher.combine(value)
      let place = Place(digest: hasher.finalize(), indexLevels: indexLevels)
      found[JSONPointer(tokens: tokens)] = place
    }
  }

  /// The parts of a new state encoded in one step: each part's place, and what was hidden in it.
  final class Parts {
    var list: [(root: JSONPointer, found: [JSONPointer: Place])] = []
  }

  /// Takes the state whole as `found` describes it, forgetting what was known.
  mutating func reset(to found: [JSONPointer: Place]) {
    places = found
  }

  /// Moves to the new state that `patch` makes, whose encoded `parts` found hidden values anew,
  /// and returns the paths whose hidden value changed while the patch left its placeholder in
  /// place, in document order.
  ///
  /// The known places follow the patch first (an element removed before one shifts it, a value
  /// replaced takes its hidden values with it), so each is compared with the value now at its
  /// place, never with a neighbour's.
  mutating func changes(
    after patch: JSONPatch, parts: [(root: JSONPointer, found: [JSONPointer: Place])]
  ) -> [JSONPointer] {
    for operation in patch.operations { follow(operation) }
    guard !parts.isEmpty else { return [] }
    var changed: [JSONPointer] = []
    for part in parts {
      for (path, place) in part.found {
        if let old = places[path], old.digest != place.digest { changed.append(path) }
      }
    }
    for part in parts { forget(part.root) }
    for part in parts { places.merge(part.found) { $1 } }
    return Set(changed).sorted { Self.precedes($0.tokens, $1.tokens) }
  }

  /// Follows one operation of a patch: what it replaces or removes is forgotten, and the places
  /// after an element added or removed move with it.
  private mutating func follow(_ operation: JSONPatch.Operation) {
    switch operation {
    case .test:
      return
    case .replace(let path, _), .splice(let path, _, _, _):
      forget(path)
    case .add(let path, _):
      // Into an array, the elements from `path` on move up; into an object, a member is new
      // or replaced.
      shift(after: path, by: 1)
      forget(path)
    case .remove(let path):
      forget(path)
      shift(after: path, by: -1)
    case .move(let from, let path):
      let moved = take(from)
      shift(after: from, by: -1)
      shift(after: path, by: 1)
      forget(path)
      if from.parent == path.parent { put(moved, at: path) }
    case .copy(let from, let path):
      let copied = places.filter { from.isPrefix(of: $0.key) }
      shift(after: path, by: 1)
      forget(path)
      if from.parent == path.parent { put(copied, at: path) }
    }
  }

  /// Forgets the places at `path` and under it.
  private mutating func forget(_ path: JSONPointer) {
    for key in places.keys.filter({ path.isPrefix(of: $0) }) { places[key] = nil }
  }

  /// Removes the places at `path` and under it, and returns them.
  private mutating func take(_ path: JSONPointer) -> [JSONPointer: Place] {
    let taken = places.filter { path.isPrefix(of: $0.key) }
    forget(path)
    return taken
  }

  /// Puts `moved` (places under an element of the same array) under the element at `path`.
  private mutating func put(_ moved: [JSONPointer: Place], at path: JSONPointer) {
    let level = path.tokens.count - 1
    for (old, place) in moved {
      var tokens = old.tokens
      tokens[level] = path.tokens[level]
      places[JSONPointer(tokens: tokens)] = place
    }
  }

  /// Moves by `offset` the places under the elements after the one at `path`, when `path`
  /// names an element of an array.
  private mutating func shift(after path: JSONPointer, by offset: Int) {
    guard let last = path.lastToken, let index = JSONPointer.arrayIndex(last), !places.isEmpty
    else { return }
    let level = path.tokens.count - 1
    let parent = path.tokens.dropLast()
    var shifted: [(JSONPointer, JSONPointer)] = []
    for (key, place) in places {
      let tokens = key.tokens
      guard tokens.count > level, level < 64, place.indexLevels & (1 << UInt64(level)) != 0,
        tokens.starts(with: parent), let position = JSONPointer.arrayIndex(tokens[level]),
        position > index || (position == index && offset > 0)
      else { continue }
      var moved = tokens
      moved[level] = String(position + offset)
      shifted.append((key, JSONPointer(tokens: moved)))
    }
    let moved = shifted.map { ($0.1, places.removeValue(forKey: $0.0)!) }
    for (key, place) in moved { places[key] = place }
  }

  /// Document order: tokens compared one by one, array indices by number.
  private static func precedes(_ lhs: [String], _ rhs: [String]) -> Bool {
    for (left, right) in zip(lhs, rhs) where left != right {
      if let left = JSONPointer.arrayIndex(left), let right = JSONPointer.arrayIndex(right) {
        return left < right
      }
      return left < right
    }
    return lhs.count < rhs.count
  }
}

extension JSONPointer {
  /// Whether this pointer is `other` or one of its ancestors.
  fileprivate func isPrefix(of other: JSONPointer) -> Bool {
    tokens.count <= other.tokens.count && other.tokens.starts(with: tokens)
  }
}
