import Foundation

/// Opens a URL, as TCA's `@Dependency(\.openURL)` does: call it from an effect.
///
/// ```swift
/// @Dependency(\.openURL) var openURL
///
/// case .termsButtonTapped:
///   return .run { _ in await openURL(URL(string: "https://example.com/terms")!) }
/// ```
///
/// Linux has no system-wide URL opener an app can count on, so the live value opens nothing and
/// answers `false`; an app that opens URLs sets its own with ``init(handler:)``.
public struct OpenURLEffect: Sendable {
  private let handler: @Sendable (URL) async -> Bool

  /// Creates an effect that opens URLs with `handler`, which answers whether it opened one.
  public init(handler: @escaping @Sendable (URL) async -> Bool) {
    self.handler = handler
  }

  /// Opens `url`; answers whether it was opened.
  @discardableResult
  public func callAsFunction(_ url: URL) async -> Bool {
    await handler(url)
  }
}

// Read by effects only: a replay, which does not run effects, needs no pin for it.
private enum OpenURLKey: NamedDependencyKey {
  static let propertyName = "openURL"
  static let liveValue = OpenURLEffect { _ in false }
  static var testValue: OpenURLEffect {
    OpenURLEffect { _ in
      DependencyValues.reportMissingTestValue(for: OpenURLKey.self, property: "openURL")
      return false
    }
  }
}

extension DependencyValues {
  /// Opens URLs from effects; a test that does not set it reports the first URL it opens.
  ///
  /// ```swift
  /// // In a test:
  /// let opened = LockIsolated<[URL]>([])
  /// $0.openURL = OpenURLEffect { url in opened.withValue { $0.append(url) }; return true }
  /// ```
  public var openURL: OpenURLEffect {
    get { self[OpenURLKey.self] }
    set { self[OpenURLKey.self] = newValue }
  }
}
