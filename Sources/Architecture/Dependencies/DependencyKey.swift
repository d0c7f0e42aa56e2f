/// A key for a dependency that only has a test (and preview) value.
///
/// Conform a type to this protocol when its live value lives in another module; conform to
/// ``DependencyKey`` to give the live value too.
public protocol TestDependencyKey<Value> {
  /// The type of the dependency's value.
  associatedtype Value: Sendable = Self

  /// The value used when running tests.
  static var testValue: Value { get }

  /// The value used in previews; defaults to ``testValue``.
  static var previewValue: Value { get }
}

extension TestDependencyKey {
  public static var previewValue: Value { testValue }
}

/// A key for a dependency, with the value an app uses when it runs for real.
///
/// ```swift
/// struct NumberFactClient: DependencyKey {
///   var fetch: @Sendable (Int) async throws -> String
///   static let liveValue = NumberFactClient { number in "\(number) is a number." }
/// }
///
/// extension DependencyValues {
///   var numberFact: NumberFactClient {
///     get { self[NumberFactClient.self] }
///     set { self[NumberFactClient.self] = newValue }
///   }
/// }
/// ```
///
/// A key that does not implement `testValue` reports an issue when it is read in a test, so
/// tests never reach the live world by accident.
///
/// A key that is not the value's own type declares `liveValue` alone, and `Value` is inferred
/// from it:
///
/// ```swift
/// private enum APIClientKey: DependencyKey {
///   static let liveValue = APIClient.live
/// }
/// ```
public protocol DependencyKey<Value>: TestDependencyKey {
  // NB: restated so `Value` is inferred from `liveValue` alone, not defaulted to `Self`.
  /// The type of the dependency's value.
  associatedtype Value = Self

  /// The value used when the app runs for real.
  static var liveValue: Value { get }

  /// The value used in previews; defaults to ``liveValue``.
  static var previewValue: Value { get }

  /// The value used when running tests; defaults to ``liveValue``, reporting an issue when read.
  static var testValue: Value { get }
}

extension DependencyKey {
  public static var testValue: Value {
    DependencyValues.markUnimplemented(Self.self)
    return liveValue
  }

  public static var previewValue: Value { liveValue }
}

/// The context dependencies resolve their default values in.
public enum DependencyContext: Sendable, Equatable {
  /// The app runs for real: `liveValue`.
  case live
  /// The app runs in a preview: `previewValue`.
  case preview
  /// The code runs under a test runner: `testValue`.
  case test
}

/// A built-in key that knows its `DependencyValues` property, so an unset read in a test names
/// it (`@Dependency(\.calendar)`) where the runtime cannot name the key path.
protocol NamedDependencyKey: DependencyKey, BuiltInDependencyKey {
  static var propertyName: String { get }
}

/// A key of this module. A reducer's read of one needs no pin in a replay: its values are taped
/// (`uuid`, `date`), recorded (``RecordedDependencyKey``), or used by effects only (clocks,
/// `dismiss`, `openURL`), which a replay does not run.
protocol BuiltInDependencyKey {}

/// A built-in key whose value a recording tapes by value (a locale by its identifier), so that a
/// replay feeds the recorded value back instead of the replaying machine's.
protocol RecordedDependencyKey: BuiltInDependencyKey {
  /// The value as the tap records it; `nil` when `value` is not of the key's type.
  static func tapped(_ value: any Sendable) -> DependencyTap.Value?
}
