import Foundation
import SusiCore

/// Blocks the calling thread until SIGINT or SIGTERM arrives (`susi brain serve`,
/// `susi setup serve`: the server threads go on meanwhile).
public func waitForTermination() {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    var received: Int32 = 0
    sigwait(&signals, &received)
}

/// Runs a closure on a background thread when SIGINT or SIGTERM arrives, while the caller's
/// thread goes on (e.g. blocked in the audio loop). Keep the watch alive as long as needed.
///
/// Each signal is caught at once by a handler that does nothing, until libdispatch's own
/// handler (installed by its manager thread some time after the source is resumed) replaces
/// it: so the default action never ends the process, and the children the speaker starts
/// (hooks, yt-dlp, snapclient) get the signals at their default, since a caught signal is reset
/// in a new program, where an ignored one stays ignored. Setting `SIG_IGN` instead left the
/// signals ignored in a child started before libdispatch's handler came (`TerminationWatchTests`
/// failed so once in CI).
final class TerminationWatch {
    private var sources: [any DispatchSourceSignal] = []

    /// `body` asks the work to end (e.g. `SpeakerRuntime.stopHandler`); the caller's thread
    /// then returns normally.
    init(_ body: @escaping @Sendable () -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in }
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: body)
            source.resume()
            sources.append(source)
        }
    }
}

extension SpeakerRuntime {
    /// `run()`, ended by SIGINT or SIGTERM: the pipeline cuts its sentence and ends its run,
    /// the server and the player stop (everything kept is saved as it changes) and this
    /// returns. A brain request in flight cannot be cut, so if `run()` has not returned 800 ms
    /// after the signal, the same things are stopped and the process exits 0 at once.
    public func runUntilTerminated(logger: Logger) throws {
        let stop = stopHandler
        let shutdown = shutdownHandler
        let watch = TerminationWatch {
            logger.info("stopping")
            stop()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(800)) {
                shutdown()
                logger.warning("the pipeline did not stop in time; exiting")
                _exit(0)
            }
        }
        defer { withExtendedLifetime(watch) {} }
        try run()
    }
}
