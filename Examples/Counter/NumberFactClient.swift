import Architecture

/// Fetches a fact about a number.
///
/// The tutorial's client calls numbersapi.com; these examples run without a network, so the
/// live client answers from facts computed on the spot, after a short wait on the clock.
public struct NumberFactClient: Sendable {
  public var fetch: @Sendable (Int) async throws -> String

  public init(fetch: @escaping @Sendable (Int) async throws -> String) {
    self.fetch = fetch
  }
}

/// Why the live fact source has nothing to say.
public struct NumberFactError: Error, Equatable, CustomStringConvertible {
  public var number: Int
  public var description: String { "No fact is known about \(number)." }
}

extension NumberFactClient: DependencyKey {
  public static let liveValue = NumberFactClient { number in
    @Dependency(\.continuousClock) var clock
    try await clock.sleep(for: .milliseconds(300))
    return try LocalFacts.fact(about: number)
  }
}

extension DependencyValues {
  /// Fetches facts about numbers.
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

/// Facts that can be worked out without asking anyone.
enum LocalFacts {
  static func fact(about number: Int) throws -> String {
    guard number >= 0 else { throw NumberFactError(number: number) }
    if number == 0 { return "0 is the additive identity." }
    if isPrime(number) { return "\(number) is a prime number." }
    let root = Int(Double(number).squareRoot())
    if root * root == number { return "\(number) is the square of \(root)." }
    if number.isMultiple(of: 2) { return "\(number) is an even number, \(number / 2) doubled." }
    return "\(number) is an odd number."
  }

  private static func isPrime(_ number: Int) -> Bool {
    guard number >= 2 else { return false }
    var divisor = 2
    while divisor * divisor <= number {
      if number.isMultiple(of: divisor) { return false }
      divisor += 1
    }
    return true
  }
}
