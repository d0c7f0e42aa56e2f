@testable import Architecture

/// Reads the package-level reduce context from tests.
enum ReduceContextProbe {
  static func current() -> (step: Int, origin: ActionOrigin) {
    let context = ReduceContext.current!
    return (context.step, context.origin)
  }
}
