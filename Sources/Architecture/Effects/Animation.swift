import Foundation

/// A stand-in for SwiftUI's `Animation`, so `send(.action, animation: .default)` compiles on Linux.
///
/// There is nothing to animate without SwiftUI: an animation is only a name, such as
/// `easeInOut(duration: 0.35)`, that equality, hashing, encoding and dumps show. APIs that take
/// one behave exactly like their plain versions.
///
/// ```swift
/// await send(.factResponse(fact), animation: .easeInOut(duration: 0.3))
/// ```
public struct Animation: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The SwiftUI spelling of the animation, as in `spring(response: 0.5, …)`.
  public let description: String

  init(_ description: String) {
    self.description = description
  }

  /// Decodes the animation from its description, as ``encode(to:)`` writes it.
  public init(from decoder: any Decoder) throws {
    description = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes the animation as its description.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The platform's default animation.
  public static let `default` = Animation("default")
  /// A constant-speed animation.
  public static let linear = Animation("linear")
  /// An animation that starts slowly.
  public static let easeIn = Animation("easeIn")
  /// An animation that ends slowly.
  public static let easeOut = Animation("easeOut")
  /// An animation that starts and ends slowly.
  public static let easeInOut = Animation("easeInOut")
  /// A spring with SwiftUI's default response and damping.
  public static let spring = Animation("spring")
  /// A stiff spring with a short response, for interactive gestures.
  public static let interactiveSpring = Animation("interactiveSpring")
  /// A smooth spring with no bounce.
  public static let smooth = Animation("smooth")
  /// A spring with a small bounce.
  public static let snappy = Animation("snappy")
  /// A spring with a visible bounce.
  public static let bouncy = Animation("bouncy")

  /// A constant-speed animation lasting `duration` seconds.
  public static func linear(duration: TimeInterval) -> Animation {
    Animation("linear(duration: \(duration))")
  }

  /// An animation lasting `duration` seconds that starts slowly.
  public static func easeIn(duration: TimeInterval) -> Animation {
    Animation("easeIn(duration: \(duration))")
  }

  /// An animation lasting `duration` seconds that ends slowly.
  public static func easeOut(duration: TimeInterval) -> Animation {
    Animation("easeOut(duration: \(duration))")
  }

  /// An animation lasting `duration` seconds that starts and ends slowly.
  public static func easeInOut(duration: TimeInterval) -> Animation {
    Animation("easeInOut(duration: \(duration))")
  }

  /// A spring described by its response, damping and blend duration, with SwiftUI's defaults.
  public static func spring(
    response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: TimeInterval = 0
  ) -> Animation {
    Animation(
      "spring(response: \(response), dampingFraction: \(dampingFraction), "
        + "blendDuration: \(blendDuration))"
    )
  }

  /// A spring described by its perceived duration and bounce.
  public static func spring(
    duration: TimeInterval, bounce: Double = 0, blendDuration: Double = 0
  ) -> Animation {
    Animation(
      "spring(duration: \(duration), bounce: \(bounce), blendDuration: \(blendDuration))"
    )
  }

  /// A stiff spring for interactive gestures, with SwiftUI's defaults.
  public static func interactiveSpring(
    response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: TimeInterval = 0.25
  ) -> Animation {
    Animation(
      "interactiveSpring(response: \(response), dampingFraction: \(dampingFraction), "
        + "blendDuration: \(blendDuration))"
    )
  }

  /// A spring described by its physical properties.
  public static func interpolatingSpring(
    mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
  ) -> Animation {
    Animation(
      "interpolatingSpring(mass: \(mass), stiffness: \(stiffness), damping: \(damping), "
        + "initialVelocity: \(initialVelocity))"
    )
  }

  /// An animation that follows a cubic Bézier timing curve for `duration` seconds.
  public static func timingCurve(
    _ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double, duration: TimeInterval = 0.35
  ) -> Animation {
    Animation("timingCurve(\(c0x), \(c0y), \(c1x), \(c1y), duration: \(duration))")
  }

  /// This animation, started after `delay` seconds.
  public func delay(_ delay: TimeInterval) -> Animation {
    Animation("\(description).delay(\(delay))")
  }

  /// This animation, played at `speed` times its normal speed.
  public func speed(_ speed: Double) -> Animation {
    Animation("\(description).speed(\(speed))")
  }

  /// This animation, played `repeatCount` times.
  public func repeatCount(_ repeatCount: Int, autoreverses: Bool = true) -> Animation {
    Animation("\(description).repeatCount(\(repeatCount), autoreverses: \(autoreverses))")
  }

  /// This animation, repeated for ever.
  public func repeatForever(autoreverses: Bool = true) -> Animation {
    Animation("\(description).repeatForever(autoreverses: \(autoreverses))")
  }
}
