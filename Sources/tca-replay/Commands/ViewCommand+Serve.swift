import Foundation
import Recorder

#if canImport(Glibc)
  import Glibc
#endif

extension ViewCommand {
  static let serve = Flag(
    "--serve",
    help: "Serve the viewer on 127.0.0.1 instead of writing a file, and show each step as the "
      + "app records it (across rotated files; a trace that does not exist yet is waited for). "
      + "Prints the page's URL, with its access token, first on standard output. Ctrl-C stops.")
  static let port = Option<Int>(
    "--port", value: "<n>",
    help: "With --serve, the port to listen on (default 0: one the system picks, in the URL)."
  ) { text, name throws(UsageError) in
    guard let number = Int(text), (0...65535).contains(number) else {
      throw UsageError(message: "'\(name)' takes a port from 0 to 65535, not '\(text)'")
    }
    return number
  }

  /// `view --serve`: the live viewer, until Ctrl-C or SIGTERM.
  static func runServer(
    _ arguments: Arguments, _ context: CommandContext
  ) throws(UsageError) -> ExitStatus {
    let path = arguments.positionals[0]
    let host = try HostSettings(given: arguments)
    guard let token = ServeAccess.randomToken() else {
      context.errors.write("Error: cannot read /dev/urandom for the access token\n")
      return .cannotServe
    }
    let errors = context.errors
    // On a terminal, a note first clears the progress line it interrupts.
    let clear = isatty(2) == 1 ? "\r\u{1B}[K" : ""
    let feed = LiveFeed(path: path) { note in
      errors.writeRaw(clear)
      errors.write(note + "\n")
    }
    let title = String(path.split(separator: "/").last ?? "trace")
    let server: LiveServer
    do {
      server = try LiveServer(
        port: UInt16(arguments[Self.port] ?? 0), token: token, feed: feed,
        page: Array(ViewerPage.liveHTML(title: title, whatIf: host != nil).utf8),
        whatIf: host.map { ServedWhatIf(path: path, settings: $0) })
    } catch {
      context.errors.write("Error: \(error.message)\n")
      return .cannotServe
    }
    // Before the URL: a script that reads it may signal at once.
    ServeInterrupt.install(wake: server.wakeDescriptor)
    // The URL first and alone on its line, so a script can read it and go.
    context.output.write(server.url + "\n")
    context.errors.write("Serving \(path) on 127.0.0.1:\(server.access.port); Ctrl-C stops.\n")
    feed.start()
    if isatty(2) == 1 { showProgress(feed, server, context) }
    server.run()
    context.errors.writeRaw(clear)
    context.errors.write("Stopped serving \(path).\n")
    return .success
  }

  /// On a terminal only, a line that says how far the feed has read and who is watching.
  private static func showProgress(
    _ feed: LiveFeed, _ server: LiveServer, _ context: CommandContext
  ) {
    let errors = context.errors
    Thread.detachNewThread {
      while true {
        let line =
          counted(feed.stepCount, "step") + " read · "
          + counted(server.openConnections, "connection")
        // The line's own escape, raw; its text through `write`, which renders the colour.
        errors.writeRaw("\r\u{1B}[K")
        errors.write(context.style.paint(line, .dim))
        usleep(500_000)
      }
    }
  }
}

/// Ctrl-C or SIGTERM while serving: a byte on the server's wake pipe ends its accept loop.
enum ServeInterrupt {
  nonisolated(unsafe) private static var wake: Int32 = -1

  static func install(wake descriptor: Int32) {
    wake = descriptor
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber) { _ in
        var byte: UInt8 = 1
        _ = write(ServeInterrupt.wake, &byte, 1)
      }
    }
  }
}
