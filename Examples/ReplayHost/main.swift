import Bookshelf
import ComposedApp
import Counter
import Recorder
import Todos

// The examples' replay host: `tca-replay bisect Traces/todos.ndjson --host <this executable>`.
ReplayHost.run(CounterFeature(), TodosFeature(), AppFeature(), BookshelfFeature())
