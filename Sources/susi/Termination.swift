import Foundation

/// Blocks until SIGINT or SIGTERM arrives.
func waitForTermination() {
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
final class TerminationWatch {
    private var sources: [any DispatchSourceSignal] = []

    /// `body` asks the work to end (e.g. `PipelineStatus.requestStop`); the caller's thread
    /// then returns normally.
    init(_ body: @escaping @Sendable () -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: body)
            source.resume()
            sources.append(source)
        }
    }
}
