/// Reads a trace's lines as bytes, without parsing them: what lets a parallel replay hand the
/// parsing to its threads.
///
/// It is ``TraceReader``'s line reading, with errors as ``ReplayError``: it streams, numbers
/// lines from 1, and drops an incomplete last line with the same warning.
final class TraceLines {
  private let reader: TraceReader
  var path: String { reader.path }
  /// The number of the line ``next()`` returned last.
  var line: Int { reader.line }
  /// Set when the trace ended in an incomplete line.
  var warning: String? { reader.warning }
  /// ``warning`` without its `warning:` tag.
  var warningMessage: String? { reader.warningMessage }

  init(path: String) throws(ReplayError) {
    do {
      reader = try TraceReader(path: path)
    } catch {
      throw ReplayError(error)
    }
  }

  /// Reads the first line, which must be a header record.
  func header() throws(ReplayError) -> TraceHeader {
    guard let first = try next() else {
      throw failure(noRecordProblem(endsInTornLine: warning != nil), line: nil)
    }
    do {
      return try TraceHeader(parsingFirstLine: first, path: path, line: line)
    } catch {
      throw ReplayError(error)
    }
  }

  /// The next line, without its newline; `nil` at the end of the trace.
  func next() throws(ReplayError) -> ArraySlice<UInt8>? {
    do {
      return try reader.nextLine()
    } catch {
      throw ReplayError(error)
    }
  }

  private func failure(_ message: String, line: Int?) -> ReplayError {
    ReplayError(TraceReadError(path: path, line: line, kind: .malformed, message: message))
  }

  /// Parses one line into a record; `nil` for a kind this version does not know.
  static func record(_ bytes: ArraySlice<UInt8>, path: String, line: Int) throws(ReplayError)
    -> TraceRecord?
  {
    do {
      return try TraceRecord(parsingLine: bytes, path: path, line: line)
    } catch {
      throw ReplayError(error)
    }
  }
}
