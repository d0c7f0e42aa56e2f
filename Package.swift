// swift-tools-version: 6.0
import PackageDescription

// No package dependencies: the project is "packages: none" by design. Everything it needs
// (JSON, diffing, clocks, case paths, an identified array) is written here.
let package = Package(
  name: "tca-replay",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "Architecture", targets: ["Architecture"]),
    .library(name: "Recorder", targets: ["Recorder"]),
    .executable(name: "tca-replay", targets: ["tca-replay"]),
  ],
  targets: [
    // The TCA-style runtime: reducers, effects, stores, the test store, dependencies, clocks.
    .target(name: "Architecture"),
    // A JSON library that knows nothing of traces: values, parsing, writing, Codable, RFC 6901
    // pointers and RFC 6902 patches. Not a product: its `public` lets the optimizer inline it
    // into Recorder, no app sees it.
    .target(name: "TraceJSON"),
    // The trace format, the recording reducer and its writer, reading and replaying traces. Its
    // folders are layers, each using only those before it: Trace, Writer, Recording, Reading,
    // Replay, TestGeneration (RecorderTests' FolderDependencyTests checks it).
    .target(name: "Recorder", dependencies: ["Architecture", "TraceJSON"]),
    // The command-line debugger; the viewer's assets are compiled in, not shipped as resources.
    .executableTarget(
      name: "tca-replay", dependencies: ["Recorder", "TraceJSON"], exclude: ["Viewer/Assets"]
    ),

    // Example apps: what records the traces in Traces/.
    .target(name: "Counter", dependencies: ["Architecture"], path: "Examples/Counter"),
    .target(name: "Todos", dependencies: ["Architecture"], path: "Examples/Todos"),
    .target(
      name: "ComposedApp", dependencies: ["Architecture", "Counter"], path: "Examples/ComposedApp"
    ),
    .target(name: "Bookshelf", dependencies: ["Architecture"], path: "Examples/Bookshelf"),
    // Scripted sessions of the examples, recorded into Traces/ by `swift run record-traces`.
    .target(
      name: "ExampleSessions",
      dependencies: ["Recorder", "Counter", "Todos", "ComposedApp", "Bookshelf"],
      path: "Examples/Sessions"
    ),
    .executableTarget(
      name: "record-traces",
      dependencies: ["ExampleSessions"],
      path: "Examples/RecordTraces"
    ),

    // The examples' replay host, which `tca-replay bisect/verify --host` drives.
    .executableTarget(
      name: "example-replay-host",
      dependencies: ["Recorder", "Counter", "Todos", "ComposedApp", "Bookshelf"],
      path: "Examples/ReplayHost"
    ),

    // Release-build benchmarks: `swift run -c release benchmarks`.
    .executableTarget(
      name: "benchmarks",
      dependencies: [
        "Architecture", "Recorder", "TraceJSON", "Counter", "Todos", "LongSessionApps",
      ],
      path: "Benchmarks"
    ),

    // Helpers the runtime's and the recorder's tests share.
    .target(name: "TestSupport", dependencies: ["Architecture"], path: "Tests/TestSupport"),
    .testTarget(name: "ArchitectureTests", dependencies: ["Architecture", "TestSupport"]),
    // TraceJSON's own tests; Architecture only for its seeded generator.
    .testTarget(name: "TraceJSONTests", dependencies: ["TraceJSON", "Architecture"]),
    .testTarget(
      name: "RecorderTests",
      dependencies: ["Recorder", "TraceJSON", "ExampleSessions", "record-traces", "TestSupport"]
    ),
    // Runs the built tca-replay binary end to end; record-traces records what it follows.
    .testTarget(
      name: "ToolTests",
      dependencies: [
        "tca-replay", "record-traces", "example-replay-host", "Recorder", "TraceJSON",
        "TestSupport", "Shapes", "LongSessionApps",
      ],
      exclude: ["Golden", "Fixtures"]
    ),
    // Deliberately changed example reducers, and a replay host serving them, for ReplayTests.
    .target(
      name: "ReplayMutants",
      dependencies: ["Recorder", "Counter", "Todos", "ComposedApp", "Bookshelf"],
      path: "Tests/ReplayMutants"
    ),
    .executableTarget(
      name: "mutant-replay-host",
      dependencies: ["Recorder", "ReplayMutants", "LongSessionApps"],
      path: "Tests/MutantReplayHost"
    ),
    .testTarget(
      name: "ReplayTests",
      dependencies: [
        "Recorder", "TraceJSON", "ReplayMutants", "Bookshelf", "tca-replay", "example-replay-host",
        "mutant-replay-host", "record-traces", "TestSupport",
      ]
    ),
    // Round trips on fresh data: a trip planner in a navigation shape no example has (a stack
    // in a sheet, alerts in stack elements, ifCaseLet), a replay host serving it with the
    // examples, and tests that record every session now and replay it through today's code.
    .target(name: "Itinerary", dependencies: ["Architecture"], path: "Tests/RoundTrip/Itinerary"),
    .executableTarget(
      name: "round-trip-host",
      dependencies: ["Recorder", "Counter", "Todos", "ComposedApp", "Bookshelf", "Itinerary"],
      path: "Tests/RoundTrip/Host"
    ),
    .testTarget(
      name: "RoundTripTests",
      dependencies: [
        "Recorder", "TraceJSON", "ExampleSessions", "Itinerary", "PortedFeatures", "tca-replay",
        "round-trip-host", "record-traces", "TestSupport",
      ]
    ),
    .testTarget(name: "CounterTests", dependencies: ["Counter"]),
    .testTarget(name: "TodosTests", dependencies: ["Todos"]),
    .testTarget(name: "ComposedAppTests", dependencies: ["ComposedApp", "Counter"]),
    .testTarget(name: "BookshelfTests", dependencies: ["Bookshelf"]),
    // A TCA 1.3-style corpus (issue 14): the same feature and test files, written against
    // ComposableArchitecture 1.3 with only the import changed, built in Swift 5 mode here and,
    // through symlinks, in Swift 6 mode below. Tests/Ported/README.md says how and why.
    .target(
      name: "PortedFeatures",
      dependencies: ["Architecture"],
      path: "Tests/Ported/Features",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    .testTarget(
      name: "PortedFeaturesTests",
      dependencies: ["PortedFeatures", "Architecture"],
      path: "Tests/Ported/FeatureTests",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    .target(
      name: "PortedFeatures6",
      dependencies: ["Architecture"],
      path: "Tests/Ported6/Features",
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    // The alias lets the shared test files say `@testable import PortedFeatures` in both modes.
    .testTarget(
      name: "PortedFeatures6Tests",
      dependencies: ["PortedFeatures6", "Architecture"],
      path: "Tests/Ported6/FeatureTests",
      swiftSettings: [
        .swiftLanguageMode(.v6), .unsafeFlags(["-module-alias", "PortedFeatures=PortedFeatures6"]),
      ]
    ),
    // Issue 34's corpus: TCA 1.3-style features with no Codable anywhere, each with TestStore
    // tests and a scripted session that recording wrappers replay. Tests/Plain/README.md.
    .target(
      name: "PlainFeatures",
      dependencies: ["Architecture"],
      path: "Tests/Plain/Features",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    .testTarget(
      name: "PlainFeaturesTests",
      dependencies: ["PlainFeatures", "Architecture"],
      path: "Tests/Plain/FeatureTests",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    // The same files through symlinks, in Swift 6 mode, as PortedFeatures6 is.
    // The plain corpus's replay host, and the tests that record, replay, inspect and generate
    // tests from every feature in the run; the generated tests run as committed, in both modes.
    .executableTarget(
      name: "plain-replay-host",
      dependencies: ["Recorder", "PlainFeatures"],
      path: "Tests/Plain/Host",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    .testTarget(
      name: "PlainRoundTripTests",
      dependencies: [
        "PlainFeatures", "Recorder", "TraceJSON", "TestSupport", "tca-replay", "plain-replay-host",
      ],
      path: "Tests/Plain/RoundTrip"
    ),
    .testTarget(
      name: "PlainGeneratedTests",
      dependencies: ["PlainFeatures", "Architecture"],
      path: "Tests/Plain/Generated",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    .testTarget(
      name: "PlainGeneratedTests6",
      dependencies: ["PlainFeatures6", "Architecture"],
      path: "Tests/Plain6/Generated",
      swiftSettings: [
        .swiftLanguageMode(.v6), .unsafeFlags(["-module-alias", "PlainFeatures=PlainFeatures6"]),
      ]
    ),
    .target(
      name: "PlainFeatures6",
      dependencies: ["Architecture"],
      path: "Tests/Plain6/Features",
      swiftSettings: [.swiftLanguageMode(.v6)]
    ),
    .testTarget(
      name: "PlainFeatures6Tests",
      dependencies: ["PlainFeatures6", "Architecture"],
      path: "Tests/Plain6/FeatureTests",
      swiftSettings: [
        .swiftLanguageMode(.v6), .unsafeFlags(["-module-alias", "PlainFeatures=PlainFeatures6"]),
      ]
    ),
    // A feature holding every Codable shape, internal as app features are: what the
    // generator's shape tests record, and what their committed generated tests exercise.
    .target(name: "Shapes", dependencies: ["Architecture"], path: "Tests/Shapes"),
    // Issue 35's bar: three apps with no Codable, in shapes the examples lack (a chat room with
    // a redacted token, a ledger of nested dictionaries and enum cells, a warehouse of bins
    // with their own effects), each with a seeded session of 400 steps and more that
    // `LongSession.record(to:)` records; and the tests that measure gen-test's output on them.
    .target(
      name: "LongSessionApps", dependencies: ["Architecture", "Recorder", "TestSupport"],
      path: "Tests/LongSessions/Apps"
    ),
    .testTarget(
      name: "LongSessionTests",
      dependencies: ["LongSessionApps", "Recorder", "TraceJSON", "TestSupport", "tca-replay"],
      path: "Tests/LongSessions/Tests"
    ),
    // A new user's app (issue 36): a bicycle workshop in shapes no other test app has (a
    // reducer with init parameters, an alert with an empty action enum in a destination, an
    // optional child, a failing lookup), its replay host, and the tests that drive every
    // command on its recording. Tests/Workshop/README.md.
    .target(name: "Workshop", dependencies: ["Architecture"], path: "Tests/Workshop/App"),
    .executableTarget(
      name: "workshop-replay-host", dependencies: ["Recorder", "Workshop"],
      path: "Tests/Workshop/Host"
    ),
    .testTarget(
      name: "WorkshopTests",
      dependencies: [
        "Workshop", "Recorder", "TraceJSON", "TestSupport", "tca-replay", "workshop-replay-host",
      ],
      path: "Tests/Workshop/Tests"
    ),
    // Tests written by `tca-replay gen-test` from Traces/ and the tests' sessions (Shapes, the
    // pantry's crash in ReplayMutants), committed as generated.
    .testTarget(
      name: "GeneratedTests",
      dependencies: [
        "Architecture", "Counter", "Todos", "ComposedApp", "Bookshelf", "Shapes", "ReplayMutants",
      ]
    ),
    // The reading list's generated tests again, in Swift 5 mode: symlinks to GeneratedTests.
    .testTarget(
      name: "GeneratedTests5",
      dependencies: ["Architecture", "Shapes"],
      path: "Tests/GeneratedTests5",
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    // The generator's own tests: drift of the committed tests, the mutation check, bad input;
    // the pantry's crash (ReplayMutants, recorded by mutant-replay-host) for the crashing step.
    .testTarget(
      name: "TestGenerationTests",
      dependencies: [
        "Recorder", "TraceJSON", "Counter", "Todos", "ComposedApp", "Bookshelf", "Shapes",
        "tca-replay",
        "TestSupport", "ReplayMutants", "mutant-replay-host",
      ],
      exclude: ["Fixtures"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
