import TraceJSON

extension TraceRecord {
  /// The record as the JSON object written on its line, members in the documented order.
  package var json: JSONValue {
    var object = JSONObject()
    switch self {
    case let .header(header):
      object["kind"] = "header"
      object["version"] = .integer(Int64(header.version))
      object["tool"] = .string(header.tool)
      object["reducer"] = .string(header.reducer)
      object["stateType"] = .string(header.stateType)
      object["actionType"] = .string(header.actionType)
      object["fingerprint"] = [
        "state": .string(header.fingerprint.state),
        "action": .string(header.fingerprint.action),
      ]
      object["started"] = .string(header.started)
      object["keyframeInterval"] = .integer(Int64(header.keyframeInterval))
      if !header.redactions.isEmpty {
        object["redactions"] = .array(header.redactions.map(\.json))
      }
      if !header.metadata.isEmpty {
        object["metadata"] = .object(
          JSONObject(header.metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        )
      }
      if header.firstStep != 0 { object["firstStep"] = .integer(Int64(header.firstStep)) }
      if let types = header.types { object["types"] = types }
      if !header.reducerProperties.isEmpty {
        object["reducerProperties"] = .array(header.reducerProperties.map { .string($0) })
      }
      object["initialState"] = header.initialState

    case let .step(step):
      object["kind"] = "step"
      object["index"] = .integer(Int64(step.index))
      object["time"] = .double(step.time)
      if let clock = step.clock { object["clock"] = .double(clock) }
      switch step.origin {
      case .send:
        object["origin"] = "send"
      case let .effect(cause):
        object["origin"] = "effect"
        object["cause"] = cause.map { .integer(Int64($0)) } ?? .null
      }
      object["action"] = step.action ?? .null
      object["label"] = .string(step.label)
      object["patch"] = step.patch.json
      if !step.dependencies.isEmpty {
        object["deps"] = .array(step.dependencies.map(\.json))
      }
      if !step.effects.isEmpty {
        object["effects"] = .array(step.effects.map { .integer(Int64($0)) })
      }
      if !step.cancels.isEmpty { object["cancels"] = .array(step.cancels.map { .string($0) }) }
      if !step.cancellable.isEmpty {
        object["cancellable"] = .array(step.cancellable.map { .string($0) })
      }
      if let types = step.types { object["types"] = types }

    case let .keyframe(keyframe):
      object["kind"] = "keyframe"
      object["index"] = .integer(Int64(keyframe.index))
      object["state"] = keyframe.state

    case let .effect(event):
      object["kind"] = "effect"
      object["event"] = .string(event.event.rawValue)
      object["effect"] = .integer(Int64(event.effect))
      object["step"] = .integer(Int64(event.step))
      object["time"] = .double(event.time)
      if let reads = event.reads { object["reads"] = .array(reads.map(JSONValue.string)) }

    case let .end(end):
      object["kind"] = "end"
      object["steps"] = .integer(Int64(end.steps))
      object["time"] = .double(end.time)

    case let .gap(gap):
      object["kind"] = "gap"
      object["from"] = .integer(Int64(gap.from))
      object["to"] = .integer(Int64(gap.to))
      object["reason"] = .string(gap.reason)
      object["state"] = gap.state
    case let .crash(crash):
      return crash.json
    }
    return .object(object)
  }

  /// Reads a record from its line's JSON; `nil` for a kind this version does not know.
  ///
  /// - Throws: ``TraceFormatError`` naming the member that is missing or malformed.
  package init?(json: JSONValue) throws(TraceFormatError) {
    let fields = try Fields(json)
    switch try fields.string("kind") {
    case "header":
      let version = try fields.int("version")
      guard version >= 1 else {
        throw TraceFormatError("invalid trace format version \(version): versions start at 1")
      }
      guard version <= traceFormatVersion else {
        throw TraceFormatError(
          "unsupported trace format version \(version); this build reads up to "
            + "\(traceFormatVersion)"
        )
      }
      let fingerprint = try Fields(fields.required("fingerprint"), context: "fingerprint")
      self = .header(
        TraceHeader(
          version: version,
          tool: try fields.string("tool"),
          reducer: try fields.string("reducer"),
          stateType: try fields.string("stateType"),
          actionType: try fields.string("actionType"),
          fingerprint: SchemaFingerprint(
            state: try fingerprint.string("state"), action: try fingerprint.string("action")
          ),
          started: try fields.string("started"),
          keyframeInterval: try fields.count("keyframeInterval"),
          redactions: try (fields.optional("redactions")?.arrayValue ?? []).map {
            (value) throws(TraceFormatError) in try Redaction(json: value)
          },
          metadata: try fields.stringDictionary("metadata"),
          firstStep: try fields.optionalCount("firstStep") ?? 0,
          initialState: try fields.required("initialState"),
          types: fields.optional("types"),
          reducerProperties: (fields.optional("reducerProperties")?.arrayValue ?? []).compactMap(
            \.stringValue)
        )
      )

    case "step":
      let origin: TraceStep.Origin
      switch try fields.string("origin") {
      case "send": origin = .send
      case "effect": origin = .effect(cause: try fields.optionalCount("cause"))
      case let other: throw TraceFormatError("unknown origin \"\(other)\"")
      }
      let action = try fields.required("action")
      let patch: JSONPatch
      do {
        patch = try JSONPatch(json: try fields.required("patch"))
      } catch {
        throw TraceFormatError("malformed patch: \(error)")
      }
      var step = TraceStep(
          index: try fields.count("index"),
          time: try fields.double("time"),
          origin: origin,
          action: action.isNull ? JSONValue?.none : action,
          label: try fields.string("label"),
          patch: patch,
          dependencies: try (fields.optional("deps")?.arrayValue ?? []).map {
            (value) throws(TraceFormatError) in try DependencyValue(json: value)
          },
          effects: try fields.countArray("effects"),
          types: fields.optional("types"),
          cancels: try fields.stringArray("cancels"),
          cancellable: try fields.stringArray("cancellable")
        )
      if fields.optional("clock") != nil { step.clock = try fields.double("clock") }
      self = .step(step)

    case "keyframe":
      self = .keyframe(
        TraceKeyframe(index: try fields.count("index"), state: try fields.required("state"))
      )

    case "effect":
      let name = try fields.string("event")
      guard let event = EffectEvent.Kind(rawValue: name) else {
        throw TraceFormatError("unknown effect event \"\(name)\"")
      }
      self = .effect(
        EffectEvent(
          event: event,
          effect: try fields.count("effect"),
          step: try fields.count("step"),
          time: try fields.double("time"),
          reads: try fields.optionalStringArray("reads")
        )
      )

    case "end":
      self = .end(TraceEnd(steps: try fields.count("steps"), time: try fields.double("time")))

    case "gap":
      let from = try fields.count("from")
      let to = try fields.count("to")
      guard from <= to else { throw TraceFormatError("a gap's \"from\" is after its \"to\"") }
      self = .gap(
        TraceGap(
          from: from, to: to, reason: try fields.string("reason"),
          state: try fields.required("state")))
    case "crash":
      let finished = fields.optional("finished")
      guard finished == nil || finished?.boolValue != nil else {
        throw TraceFormatError("\"finished\" must be true or false")
      }
      let label = fields.optional("label")
      guard label == nil || label?.stringValue != nil else {
        throw TraceFormatError("\"label\" must be a string")
      }
      let signal = fields.optional("signal")
      guard signal == nil || signal!.isNull || signal?.stringValue != nil else {
        throw TraceFormatError("\"signal\" must be a string")
      }
      let action = fields.optional("action")
      var origin: TraceStep.Origin?
      switch fields.optional("origin")?.stringValue {
      case nil: origin = nil
      case "send": origin = .send
      case "effect": origin = .effect(cause: try fields.optionalCount("cause"))
      case let other?: throw TraceFormatError("unknown origin \"\(other)\"")
      }
      self = .crash(
        TraceCrash(
          step: try fields.optionalCount("step"),
          time: try fields.double("time"),
          action: action?.isNull == true ? nil : action,
          label: label?.stringValue,
          finished: finished?.boolValue ?? false,
          signal: signal?.stringValue,
          origin: origin
        )
      )

    default:
      return nil
    }
  }
}

extension Redaction {
  var json: JSONValue {
    switch self {
    case let .key(name): ["key": .string(name)]
    case let .path(path): ["path": .string(path)]
    }
  }

  init(json: JSONValue) throws(TraceFormatError) {
    let fields = try Fields(json, context: "redaction")
    if let name = fields.optional("key")?.stringValue {
      self = .key(name)
    } else if let path = fields.optional("path")?.stringValue {
      self = .path(path)
    } else {
      throw TraceFormatError("a redaction needs a \"key\" or a \"path\"")
    }
  }
}

extension DependencyValue {
  var json: JSONValue {
    switch self {
    case let .uuid(uuid): ["uuid": .string(uuid)]
    case let .date(date): ["date": .double(date)]
    case let .random(number): ["random": .number(number)]
    case let .stackElementID(id): ["stackElementID": .integer(Int64(id))]
    case let .locale(identifier): ["locale": .string(identifier)]
    case let .timeZone(identifier): ["timeZone": .string(identifier)]
    case let .temporaryDirectory(url): ["temporaryDirectory": .string(url)]
    case let .calendar(calendar):
      [
        "calendar": .object(
          JSONObject(
            [
              ("identifier", .string(calendar.identifier)),
              ("timeZone", .string(calendar.timeZone)),
              ("locale", calendar.locale.map(JSONValue.string)),
              ("firstWeekday", .integer(Int64(calendar.firstWeekday))),
              ("minimumDaysInFirstWeek", .integer(Int64(calendar.minimumDaysInFirstWeek))),
            ].compactMap { name, value in value.map { (name, $0) } }
          )
        )
      ]
    case let .client(key, property):
      .object(
        JSONObject(
          [("client", JSONValue.string(key))] + (property.map { [("property", .string($0))] } ?? [])
        )
      )
    }
  }

  init(json: JSONValue) throws(TraceFormatError) {
    let fields = try Fields(json, context: "deps")
    if let uuid = fields.optional("uuid")?.stringValue {
      self = .uuid(uuid)
    } else if let date = fields.optional("date")?.doubleValue {
      self = .date(date)
    } else if let random = fields.optional("random") {
      switch random {
      case let .integer(value) where value >= 0: self = .random(UInt64(value))
      case let .unsignedInteger(value): self = .random(value)
      default: throw TraceFormatError("\"random\" must be an unsigned integer")
      }
    } else if let id = fields.optional("stackElementID") {
      guard case let .integer(value) = id, value >= 0 else {
        throw TraceFormatError("\"stackElementID\" must be a non-negative integer")
      }
      self = .stackElementID(Int(value))
    } else if let identifier = fields.optional("locale")?.stringValue {
      self = .locale(identifier)
    } else if let identifier = fields.optional("timeZone")?.stringValue {
      self = .timeZone(identifier)
    } else if let url = fields.optional("temporaryDirectory")?.stringValue {
      self = .temporaryDirectory(url)
    } else if let calendar = fields.optional("calendar") {
      let members = try Fields(calendar, context: "deps.calendar")
      self = .calendar(
        RecordedCalendar(
          identifier: try members.string("identifier"),
          timeZone: try members.string("timeZone"),
          locale: members.optional("locale")?.stringValue,
          firstWeekday: try members.count("firstWeekday"),
          minimumDaysInFirstWeek: try members.count("minimumDaysInFirstWeek")
        )
      )
    } else if let key = fields.optional("client")?.stringValue {
      self = .client(key: key, property: fields.optional("property")?.stringValue)
    } else {
      throw TraceFormatError(
        "a dependency value needs \"uuid\", \"date\", \"random\", \"stackElementID\", "
          + "\"locale\", \"timeZone\", \"calendar\", \"temporaryDirectory\" or \"client\"")
    }
  }
}

/// The largest step index, effect number, count or keyframe interval a trace may hold:
/// 2^53 − 1, the largest integer every JSON reader holds exactly. Far beyond any recording, and
/// far enough below `Int.max` that a reader adding to it cannot overflow.
let maximumTraceNumber: Int64 = (1 << 53) - 1

/// A record that does not follow the trace format.
package struct TraceFormatError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, in one line.
  package var message: String

  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }
}

/// Typed access to a record's members, with errors that name the member.
private struct Fields {
  let object: JSONObject
  let context: String?

  init(_ value: JSONValue, context: String? = nil) throws(TraceFormatError) {
    guard case let .object(object) = value else {
      throw TraceFormatError("\(context.map { "\"\($0)\" " } ?? "a record ")must be an object")
    }
    self.object = object
    self.context = context
  }

  private func name(_ key: String) -> String {
    context.map { "\"\($0).\(key)\"" } ?? "\"\(key)\""
  }

  func optional(_ key: String) -> JSONValue? { object[key] }

  func required(_ key: String) throws(TraceFormatError) -> JSONValue {
    guard let value = object[key] else { throw TraceFormatError("missing \(name(key))") }
    return value
  }

  func string(_ key: String) throws(TraceFormatError) -> String {
    guard let value = try required(key).stringValue else {
      throw TraceFormatError("\(name(key)) must be a string")
    }
    return value
  }

  func int(_ key: String) throws(TraceFormatError) -> Int {
    guard let value = try required(key).int64Value, let int = Int(exactly: value) else {
      throw TraceFormatError("\(name(key)) must be an integer")
    }
    return int
  }

  /// A step index, effect number, count or interval: an integer from 0 to
  /// ``maximumTraceNumber``, so that arithmetic on it cannot overflow.
  func count(_ key: String) throws(TraceFormatError) -> Int {
    guard let value = try required(key).int64Value, (0...maximumTraceNumber).contains(value)
    else {
      throw TraceFormatError("\(name(key)) must be an integer from 0 to \(maximumTraceNumber)")
    }
    return Int(value)
  }

  func optionalCount(_ key: String) throws(TraceFormatError) -> Int? {
    guard let value = object[key], !value.isNull else { return nil }
    return try count(key)
  }

  /// An optional array of counts (effect numbers); empty when absent.
  func countArray(_ key: String) throws(TraceFormatError) -> [Int] {
    guard let value = object[key] else { return [] }
    let problem = TraceFormatError(
      "\(name(key)) must be an array of integers from 0 to \(maximumTraceNumber)")
    guard case let .array(elements) = value else { throw problem }
    var result: [Int] = []
    result.reserveCapacity(elements.count)
    for element in elements {
      guard let number = element.int64Value, (0...maximumTraceNumber).contains(number) else {
        throw problem
      }
      result.append(Int(number))
    }
    return result
  }

  /// An optional array of strings (cancellation ids); empty when absent.
  func stringArray(_ key: String) throws(TraceFormatError) -> [String] {
    try optionalStringArray(key) ?? []
  }

  func double(_ key: String) throws(TraceFormatError) -> Double {
    guard let value = try required(key).doubleValue else {
      throw TraceFormatError("\(name(key)) must be a number")
    }
    return value
  }

  /// An optional array of strings; `nil` when absent.
  func optionalStringArray(_ key: String) throws(TraceFormatError) -> [String]? {
    guard let value = object[key] else { return nil }
    guard case let .array(elements) = value else {
      throw TraceFormatError("\(name(key)) must be an array of strings")
    }
    var result: [String] = []
    for element in elements {
      guard let string = element.stringValue else {
        throw TraceFormatError("\(name(key)) must be an array of strings")
      }
      result.append(string)
    }
    return result
  }

  func stringDictionary(_ key: String) throws(TraceFormatError) -> [String: String] {
    guard let value = object[key] else { return [:] }
    guard case let .object(members) = value else {
      throw TraceFormatError("\(name(key)) must be an object")
    }
    var result: [String: String] = [:]
    for (member, value) in members {
      guard let string = value.stringValue else {
        throw TraceFormatError("\(name(key)).\(member) must be a string")
      }
      result[member] = string
    }
    return result
  }
}
