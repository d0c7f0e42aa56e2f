import Foundation
import Recorder
import TraceJSON

/// `tca-replay export --format json-patch`: the trace with every patch in plain RFC 6902.
///
/// tca-replay writes a change inside a long string as a `splice`, an extension other JSON Patch
/// tools do not know. The export rebuilds each state as it goes and writes every `splice` as a
/// `test` of the whole old string and a `replace` with the whole new one; every other line is
/// copied byte for byte.
///
/// A rotated recording is written as one trace of its kept set, oldest first: the later
/// segments' headers, which repeat what the lines before them say, are left out.
struct PlainJSONPatchExport {
  /// Rewrites the trace's lines, handing each output line (without its line break) to `write`.
  /// Throws a one-line message naming the file and line of a line that does not apply.
  static func export(path: String, write: (String) -> Void) throws {
    var state = JSONValue.null
    for (number, segment) in TraceSegments.readingOrder(of: path).enumerated() {
      try export(segment: segment, isLater: number > 0, state: &state, write: write)
    }
  }

  /// Rewrites one file's lines; a later segment's header only sets the state.
  private static func export(
    segment path: String, isLater: Bool, state: inout JSONValue, write: (String) -> Void
  ) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ExportError(message: "\(path): cannot read the trace")
    }
    var lineNumber = 0
    // What follows the last line break is a line cut short: opening the trace warned of it and
    // every command skips it, so the export leaves it out too.
    let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    for line in lines.dropLast() {
      lineNumber += 1
      guard !line.isEmpty else { continue }
      func failure(_ detail: String) -> ExportError {
        ExportError(message: "\(path):\(lineNumber): \(detail)")
      }
      guard case .object(var record) = try? JSONValue(parsing: line) else {
        throw failure("not a JSON object")
      }
      switch record["kind"] {
      case .string("header"):
        state = record["initialState"] ?? .null
        if isLater { continue }
      case .string("keyframe"):
        state = record["state"] ?? state
      case .string("step"):
        guard let patchJSON = record["patch"] else { break }
        let patch: JSONPatch
        do { patch = try JSONPatch(json: patchJSON) } catch { throw failure("\(error)") }
        guard patch.hasSplice else {
          do { try patch.apply(to: &state) } catch { throw failure("\(error)") }
          break
        }
        do {
          record["patch"] = try patch.plain(applyingTo: &state).json
        } catch {
          throw failure("\(error)")
        }
        write(JSONValue.object(record).jsonString)
        continue
      default:
        break
      }
      write(String(decoding: line, as: UTF8.self))
    }
  }
}

/// A trace the export cannot rewrite; the message is one line.
struct ExportError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
