/// How a command runs its replay host, and the one declaration of the options that say so:
/// `--host`, `--timeout` and `--host-log`, which every command that runs a host takes.
///
/// ```swift
/// static let options: [any CommandOption] = HostSettings.options(required: true) + [json]
/// let settings = try HostSettings(given: arguments)  // nil without --host
/// let host = try settings?.start()
/// ```
struct HostSettings: Sendable {
  /// The shell command that starts the host.
  var command: String
  /// How long the host may go without progress.
  var timeout: Duration
  /// Where the host's standard error is appended; `nil` for a temporary file.
  var logPath: String?

  /// How long a host may go without progress when `--timeout` is not given.
  static let defaultTimeout: Duration = .seconds(30)

  static let host = Option<String>(
    "--host", value: "<command>",
    help: "The replay host to run the reducer in: an executable whose main.swift is "
      + "`ReplayHost.run(MyFeature())`, run with /bin/sh -c in a process group of its own, all "
      + "of which is stopped when tca-replay is done with it, gives up on it or is interrupted.")
  static let timeout = Option<Duration>.seconds(
    "--timeout", value: "<seconds>",
    help: "How long the host may go without progress (default "
      + "\(defaultTimeout.components.seconds), at most 1000000). One trace may take twice this "
      + "long, plus as long again per MiB of trace.")
  static let log = Option<String>(
    "--host-log", value: "<file>",
    help: "Append the host's standard error to this file (/dev/stderr shows it). By default it "
      + "goes to a temporary file, deleted unless the host crashed or failed, when it is named.")

  /// The group, in the order usage lists it; `required` for a command that cannot run without
  /// a host.
  static func options(required: Bool) -> [any CommandOption] {
    [required ? host.required : host, timeout, log]
  }

  init(command: String, timeout: Duration = HostSettings.defaultTimeout, logPath: String? = nil) {
    self.command = command
    self.timeout = timeout
    self.logPath = logPath
  }

  /// The settings given to a command that declares the group; `nil` without `--host`.
  ///
  /// - Throws: ``UsageError`` for `--timeout` or `--host-log` without `--host`: they would
  ///   change nothing.
  init?(given arguments: Arguments) throws(UsageError) {
    guard let command = arguments[Self.host] else {
      if arguments[Self.timeout] != nil { throw UsageError(message: "'--timeout' needs '--host'") }
      if arguments[Self.log] != nil { throw UsageError(message: "'--host-log' needs '--host'") }
      return nil
    }
    self.init(
      command: command, timeout: arguments[Self.timeout] ?? Self.defaultTimeout,
      logPath: arguments[Self.log])
  }

  /// The settings of a command that declares the group required, which the parser checked.
  init(required arguments: Arguments) {
    self.init(
      command: arguments[required: Self.host.required],
      timeout: arguments[Self.timeout] ?? Self.defaultTimeout, logPath: arguments[Self.log])
  }

  /// Starts the host and waits for its `hello`.
  func start() throws(HostError) -> HostProcess {
    try HostProcess(command: command, timeout: timeout, logPath: logPath)
  }
}
