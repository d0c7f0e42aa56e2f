/// A default value of `Result` for an unimplemented closure that has no placeholder, or a stop.
///
/// `()` for `Void`, `nil` for optionals, an empty collection, or zero for numbers; other types
/// have no value to make up, and the program stops with advice, as xctest-dynamic-overlay does.
func placeholderOrStop<Result>(
  _ description: String, file: StaticString, line: UInt
) -> Result {
  if let placeholder: Result = defaultPlaceholder() { return placeholder }
  fatalError(
    """
    unimplemented(\(description.isEmpty ? "" : description.debugDescription))

    To suppress this crash, provide an explicit "placeholder".
    """,
    file: file,
    line: line
  )
}

func defaultPlaceholder<Result>() -> Result? {
  if let void = () as? Result { return void }
  if let optional = Result.self as? any ExpressibleByNilLiteral.Type {
    return makeNil(optional) as? Result
  }
  if let collection = Result.self as? any RangeReplaceableCollection.Type {
    return makeEmpty(collection) as? Result
  }
  if let number = Result.self as? any AdditiveArithmetic.Type {
    return makeZero(number) as? Result
  }
  return nil
}

private func makeNil<T: ExpressibleByNilLiteral>(_ type: T.Type) -> T { nil }
private func makeEmpty<T: RangeReplaceableCollection>(_ type: T.Type) -> T { T() }
private func makeZero<T: AdditiveArithmetic>(_ type: T.Type) -> T { .zero }
