import Architecture
import Foundation

/// A planned hike, its waypoints and the times it was walked.
struct Hike: Equatable, Identifiable {
  let id: UUID
  var minutes = 60
  var title = ""
  var walks: [Walk] = []
  var waypoints: IdentifiedArrayOf<Waypoint> = []
}

/// A named point along a hike.
struct Waypoint: Equatable, Identifiable {
  let id: UUID
  var name = ""
}

/// One time a hike was walked.
struct Walk: Equatable, Identifiable {
  let id: UUID
  var date: Date
  var secondsWalked: Int
}

/// Why the saved hikes could not be read.
struct HikeStoreError: LocalizedError, Equatable {
  var errorDescription: String? { "The saved hikes are damaged." }
}

/// Loads and saves the hikes.
struct HikeStore {
  var load: @Sendable () throws -> [Hike]
  var save: @Sendable (_ hikes: [Hike]) async throws -> Void
}

extension HikeStore: DependencyKey {
  // The app keeps its hikes for the session; a disk-backed store is FieldNotes' business.
  static let liveValue = HikeStore.inMemory()

  static let testValue = HikeStore(
    load: unimplemented("HikeStore.load", placeholder: []),
    save: unimplemented("HikeStore.save")
  )

  /// Hikes kept in memory, starting from `hikes`, for previews, tests and sessions.
  static func inMemory(_ hikes: [Hike] = []) -> HikeStore {
    let saved = LockIsolated(hikes)
    return HikeStore(
      load: { saved.value },
      save: { hikes in saved.setValue(hikes) }
    )
  }
}

extension DependencyValues {
  var hikeStore: HikeStore {
    get { self[HikeStore.self] }
    set { self[HikeStore.self] = newValue }
  }
}
