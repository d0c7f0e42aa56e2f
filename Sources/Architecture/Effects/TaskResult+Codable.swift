extension TaskResult: Encodable where Success: Encodable {
  /// Encodes `{"success": value}`, or `{"failure": {"type": …, "description": …, …}}`
  /// for a failure.
  ///
  /// A failure records its error as a ``RecordedError``: the error's type name, its
  /// `String(describing:)`, its localized texts and, when the error is `Encodable`, its encoded
  /// value. A failure decoded from a recording encodes exactly as the original did.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: TaskResultCodingKeys.self)
    switch self {
    case .success(let value):
      try container.encode(value, forKey: .success)
    case .failure(let error):
      try container.encode(RecordedError(error), forKey: .failure)
    }
  }
}

extension TaskResult: Decodable where Success: Decodable {
  /// Decodes what ``encode(to:)`` writes; a failure's error is rebuilt as the error it was
  /// where a replay can (see `Documentation/Replay.md`), and is a ``RecordedError`` otherwise.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: TaskResultCodingKeys.self)
    if container.contains(.success) {
      self = .success(try container.decode(Success.self, forKey: .success))
    } else if container.contains(.failure) {
      let recorded = try container.decode(RecordedError.self, forKey: .failure)
      self = .failure(ErrorReflection.rebuilt(recorded, userInfo: decoder.userInfo))
    } else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: #"A TaskResult has a "success" or a "failure" key."#
        )
      )
    }
  }
}

private enum TaskResultCodingKeys: String, CodingKey {
  case success, failure
}
