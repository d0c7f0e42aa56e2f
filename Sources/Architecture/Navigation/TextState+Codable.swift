extension TextState: Codable {
  private enum CodingKeys: String, CodingKey {
    case text, concatenated, modifiers
  }

  /// Encodes plain text as a JSON string, and styled or joined text as an object.
  ///
  /// ```json
  /// "Delete?"
  /// {"text": "Warning", "modifiers": [{"bold": true}]}
  /// {"concatenated": ["Warning: ", "this cannot be undone."]}
  /// ```
  public func encode(to encoder: any Encoder) throws {
    if modifiers.isEmpty, case .verbatim(let string) = storage {
      var container = encoder.singleValueContainer()
      try container.encode(string)
      return
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch storage {
    case .verbatim(let string):
      try container.encode(string, forKey: .text)
    case .concatenated(let lhs, let rhs):
      try container.encode([lhs, rhs], forKey: .concatenated)
    }
    if !modifiers.isEmpty {
      try container.encode(modifiers, forKey: .modifiers)
    }
  }

  /// Decodes what ``encode(to:)`` writes.
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.singleValueContainer(),
      let string = try? container.decode(String.self)
    {
      self.init(verbatim: string)
      return
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let modifiers = try container.decodeIfPresent([Modifier].self, forKey: .modifiers) ?? []
    if let string = try container.decodeIfPresent(String.self, forKey: .text) {
      self.init(storage: .verbatim(string), modifiers: modifiers)
      return
    }
    let parts = try container.decode([TextState].self, forKey: .concatenated)
    guard parts.count == 2 else {
      throw DecodingError.dataCorruptedError(
        forKey: .concatenated, in: container,
        debugDescription: "Concatenated text has 2 parts, not \(parts.count)."
      )
    }
    self.init(storage: .concatenated(parts[0], parts[1]), modifiers: modifiers)
  }
}

extension TextState.Modifier: Codable {
  private enum CodingKeys: String, CodingKey {
    case baselineOffset, bold, italic, kerning, monospacedDigit, strikethrough, tracking
    case underline
  }

  /// Encodes the modifier as a one-member object, such as `{"bold": true}` or
  /// `{"kerning": 1.5}`.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .baselineOffset(let offset): try container.encode(offset, forKey: .baselineOffset)
    case .bold(let isActive): try container.encode(isActive, forKey: .bold)
    case .italic: try container.encode(true, forKey: .italic)
    case .kerning(let kerning): try container.encode(kerning, forKey: .kerning)
    case .monospacedDigit: try container.encode(true, forKey: .monospacedDigit)
    case .strikethrough(let isActive): try container.encode(isActive, forKey: .strikethrough)
    case .tracking(let tracking): try container.encode(tracking, forKey: .tracking)
    case .underline(let isActive): try container.encode(isActive, forKey: .underline)
    }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "A text modifier has one member."
        )
      )
    }
    switch key {
    case .baselineOffset:
      self = .baselineOffset(try container.decode(Double.self, forKey: key))
    case .bold: self = .bold(isActive: try container.decode(Bool.self, forKey: key))
    case .italic: self = .italic
    case .kerning: self = .kerning(try container.decode(Double.self, forKey: key))
    case .monospacedDigit: self = .monospacedDigit
    case .strikethrough:
      self = .strikethrough(isActive: try container.decode(Bool.self, forKey: key))
    case .tracking: self = .tracking(try container.decode(Double.self, forKey: key))
    case .underline: self = .underline(isActive: try container.decode(Bool.self, forKey: key))
    }
  }
}
