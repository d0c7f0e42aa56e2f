import Bookshelf
import ComposedApp
import Counter
import Itinerary
import Recorder
import Todos

// Replays the examples and the round-trip apps: what RoundTripTests verify fresh recordings with.
ReplayHost.run(CounterFeature(), TodosFeature(), AppFeature(), BookshelfFeature(), TripsFeature())
