/// A warning as compilers print it, `file:line: warning: message`, the one form the tool uses.
///
/// Editors and CI annotate a line of this form; without a line it is `file: warning: message`,
/// and without a file `warning: message`. It goes to standard error, one line.
package func warningLine(_ message: String, file: String? = nil, line: Int? = nil) -> String {
  var place = file ?? ""
  if let line, file != nil { place += ":\(line)" }
  return (place.isEmpty ? "" : place + ": ") + "warning: " + message
}
