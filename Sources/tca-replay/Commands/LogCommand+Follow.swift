import Recorder

#if canImport(Glibc)
  import Glibc
#endif

extension LogCommand {
  /// How long `--follow` sleeps when nothing new was written.
  static let followPollMicroseconds: UInt32 = 20_000

  /// `log --follow`: the lines `log` prints, for each step as it is written, until the end or
  /// crash record, or Ctrl-C.
  static func follow(_ path: String, listing: LogListing, context: CommandContext)
    throws(TraceReadError) -> ExitStatus
  {
    var listing = listing
    FollowInterrupt.install()
    let follower = TraceFollower(path: path)
    var saidWaiting = false
    var lostReported = 0
    while !FollowInterrupt.wasRaised {
      var lines: [String] = []
      let progress: TraceFollower.Progress
      do {
        progress = try follower.poll { record in
          if let line = listing.line(for: record, stateAfter: follower.state) {
            lines.append(line)
          }
        }
      } catch {
        // The steps before a broken line are printed: a follower cannot wait for the verdict.
        listing.write(lines, to: context.output)
        throw error
      }
      // Written as soon as read: a line is on the terminal before the next poll.
      listing.write(lines, to: context.output)
      for range in follower.lost.dropFirst(lostReported) {
        context.errors.write(
          "note: steps \(range.lowerBound)…\(range.upperBound) were rotated away before they "
            + "could be read\n")
      }
      lostReported = follower.lost.count
      switch progress {
      case .ended: return .success
      case .read: continue
      case .waitingForFile:
        if !saidWaiting {
          context.errors.write("waiting for \(path) to appear\n")
          saidWaiting = true
        }
        usleep(followPollMicroseconds)
      case .idle:
        usleep(followPollMicroseconds)
      }
    }
    return .success
  }
}

/// Ctrl-C while following: the loop ends after writing what it has read, and exits 0. The
/// stepper installs it only while it waits (`step --follow`), and restores Ctrl-C after.
enum FollowInterrupt {
  nonisolated(unsafe) private static var raised: sig_atomic_t = 0

  static var wasRaised: Bool { raised != 0 }

  static func install() {
    raised = 0
    signal(SIGINT) { _ in FollowInterrupt.raised = 1 }
  }

  /// Ctrl-C ends the process again.
  static func restore() {
    signal(SIGINT, SIG_DFL)
  }
}
