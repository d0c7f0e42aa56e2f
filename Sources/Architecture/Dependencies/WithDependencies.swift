/// Runs `operation` with some dependencies overridden.
///
/// ```swift
/// let model = withDependencies {
///   $0.uuid = .incrementing
///   $0.date = .constant(Date(timeIntervalSince1970: 1_234_567_890))
/// } operation: {
///   TodosFeature.State()
/// }
/// ```
@discardableResult
public func withDependencies<R>(
  _ updateValuesForOperation: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues._current
  try updateValuesForOperation(&values)
  return try DependencyValues.$_current.withValue(values, operation: operation)
}

/// Runs the asynchronous `operation` with some dependencies overridden.
@discardableResult
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ updateValuesForOperation: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues._current
  try await updateValuesForOperation(&values)
  return try await DependencyValues.$_current.withValue(values, operation: operation)
}
