import Architecture
import Foundation
import Recorder
import Testing

@testable import Shapes

/// The generated tests of a checkout whose card number is redacted, recorded afresh: they are
/// the committed files (`Tests/GeneratedTests/Generated/CheckoutTrace*.swift`, which `swift test`
/// compiles and runs, and `Mutants/CheckoutFeatureReplay.swift`, run here), and they pass
/// against the reducer that recorded them. Rewrite the files with
/// `RECORD_GENERATED_TESTS=1 swift test --filter CheckoutGenerationTests`.
@MainActor
@Suite("Generated tests of a checkout with a redacted card number")
struct CheckoutGenerationTests {
  /// The committed files, and the options each is generated with.
  static let outputs: [(path: String, options: TestGenerator.Options)] = {
    var outputs: [(String, TestGenerator.Options)] = []
    for (framework, name, directory) in [
      (TestGenerator.Framework.swiftTesting, "CheckoutTraceTests", "Tests/GeneratedTests/Generated"),
      (.xctest, "CheckoutTraceXCTests", "Tests/GeneratedTests/Generated"),
      (.plain, "CheckoutFeatureReplay", "Tests/TestGenerationTests/Mutants"),
    ] {
      var options = TestGenerator.Options()
      options.framework = framework
      options.typeName = name
      options.typeCheck = .decoding(CheckoutFeature.State.self, CheckoutFeature.Action.self)
      options.redactionCheck = .reducing(CheckoutFeature())
      outputs.append(("\(directory)/\(name).swift", options))
    }
    return outputs
  }()

  /// Generates each committed file from a fresh recording and compares, or rewrites them when
  /// recording; returns the plain one.
  static func generateFromFreshRecording() throws -> [GeneratedTest] {
    let path = try CheckoutSession.recordFresh()
    defer { try? FileManager.default.removeItem(atPath: path) }
    var tests: [GeneratedTest] = []
    for output in outputs {
      let test = try TestGenerator(options: output.options).generate(tracePath: path)
      tests.append(test)
      let url = GeneratedFile.url(output.path)
      if GeneratedFilesDriftTests.isRecording {
        try test.source.write(to: url, atomically: true, encoding: .utf8)
        continue
      }
      let committed = try String(contentsOf: url, encoding: .utf8)
      #expect(
        committed == test.source,
        """
        \(output.path) is not what gen-test writes today from a fresh recording; rewrite it \
        with RECORD_GENERATED_TESTS=1 swift test --filter CheckoutGenerationTests
        """
      )
    }
    return tests
  }

  @Test(
    "a fresh recording gives the committed tests, and they pass against the unchanged reducer, in every function"
  )
  func passOnTheUnchangedReducer() async throws {
    let tests = try Self.generateFromFreshRecording()
    let plain = try #require(tests.last)
    #expect(CheckoutFeatureReplay.all.map(\.name) == plain.functions.filter { $0.kind == .steps }.map(\.name))
    for function in CheckoutFeatureReplay.all {
      var thrown: (any Error)?
      let issues = await withIssueCapture {
        do { try await function.run(CheckoutFeatureReplay()) } catch { thrown = error }
      }
      #expect(issues.map(\.description) == [], "\(function.name)")
      #expect(thrown == nil, "\(function.name) threw \(String(describing: thrown))")
    }
  }

  @Test("no step is left out for the redacted card number: every step is in a function that runs")
  func everyStepRuns() throws {
    let path = try CheckoutSession.recordFresh()
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options = try #require(Self.outputs.first).options
    let test = try TestGenerator(options: options).generate(tracePath: path)
    #expect(test.skippedSteps.map(\.index) == [])
    let running = test.functions.filter { $0.kind == .steps }.flatMap { Array($0.steps) }
    #expect(running == Array(CheckoutSession.actions.indices))
    #expect(
      test.source.contains(
        "// Redacted in its action: /payment/_0/cardScanned/cardNumber (String) is \"<redacted>\".\n"))
    // From the command line, with no reducer to run, the file says the placeholders are unchecked.
    options.redactionCheck = nil
    let unchecked = try TestGenerator(options: options).generate(tracePath: path)
    #expect(unchecked.functions == test.functions)
    let prose = unchecked.source.replacingOccurrences(of: "\n// ", with: " ")
    #expect(prose.contains("The command line cannot run the reducer to check that a step"))
  }
}
