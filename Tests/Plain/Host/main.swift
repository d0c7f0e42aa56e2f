// The plain corpus's replay host: its features as they are, with no conformance added, so
// `tca-replay verify <trace> --host <this executable>` rebuilds their values by reflection.
@testable import PlainFeatures
import Recorder

ReplayHost.run(
  Greenhouse(), ParkingMeter(), BirdLog(), ChoreList(), TideSearch(), HikeLogApp(), FieldNotes(),
  Arcade(), PodcastShelf(favorite: PodcastShelf.favoriteOnServer), GardenPlanner(), PantryTabs()
)
