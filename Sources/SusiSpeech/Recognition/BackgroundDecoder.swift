import Dispatch
import SusiModel
import Synchronization

/// A `SphinxDecoder` that decodes on a thread of its own: the recogniser's second decoder
/// (the open-question model) keeps up with a command on the other core while the pipeline's
/// thread decodes with the skills' model, and ends an utterance nobody asked about without
/// holding the pipeline up.
///
/// Calls are queued in order; `close` ends the utterance on that thread, `finish` waits for
/// the queue and gives the utterance's words. A failure in queued work is kept and thrown by
/// `finish`.
final class BackgroundDecoder: @unchecked Sendable {
    // @unchecked: the PocketSphinx handle inside `decoder`, `closed` and `frontEndAtStart` are
    // only touched on `queue`.
    private let decoder: SphinxDecoder
    private let queue = DispatchQueue(label: "susi.open-decoder")
    /// The first failure of the utterance's queued work.
    private let failure = Mutex<SpeechError?>(nil)
    /// The utterance's words or failure once closed; nil while it is open. On the queue only.
    private var closed: Result<Transcript, SpeechError>?
    /// The front end as the utterance began, for `reopen`. On the queue only.
    private var frontEndAtStart: SphinxDecoder.FrontEndState?

    /// Loads the model as `SphinxDecoder.init` does.
    ///
    /// - Throws: as `SphinxDecoder.init`.
    init(configuration: SphinxConfiguration) throws(SpeechError) {
        decoder = try SphinxDecoder(configuration: configuration)
    }

    /// The configuration the decoder was created from.
    var configuration: SphinxConfiguration { decoder.configuration }

    /// Ends the last utterance if it is still open, decodes `adapting` (cleaned audio before
    /// the command, possibly empty) for its front end only, and opens an utterance.
    func start(adaptingTo adapting: [Int16]) {
        queue.async { [self] in
            failure.withLock { $0 = nil }
            closed = nil
            run { () throws(SpeechError) in
                if decoder.isInUtterance { try decoder.endUtterance() }
                if !adapting.isEmpty {
                    try decoder.startUtterance()
                    try decoder.process(adapting)
                    try decoder.endUtterance()
                }
                frontEndAtStart = decoder.frontEndState
                try decoder.startUtterance()
            }
        }
    }

    /// Decodes the next cleaned samples of the utterance.
    func process(_ samples: [Int16]) {
        queue.async { [self] in run { () throws(SpeechError) in try decoder.process(samples) } }
    }

    /// Closes the utterance on the decoder's thread once the queued audio is decoded: its
    /// final pass runs there while the caller goes on (a pause, which may end the command).
    /// `finish` gives the words; `reopen` continues the utterance if the person goes on.
    func close() {
        queue.async { [self] in closeNow() }
    }

    /// Reopens the utterance `close` ended and decodes `samples`, the utterance's cleaned
    /// audio so far, again (`SphinxDecoder.reopenUtterance`).
    func reopen(decoding samples: [Int16]) {
        queue.async { [self] in
            closed = nil
            run { () throws(SpeechError) in try decoder.reopenUtterance(from: frontEndAtStart, decoding: samples) }
        }
    }

    /// Waits for the queued audio, closes the utterance (unless `close` did) and returns its
    /// words, with the lattice's other readings as `SphinxRecognizer.finish` gives them.
    ///
    /// - Throws: the first failure of the utterance's queued work, or of closing it.
    func finish() throws(SpeechError) -> Transcript {
        try queue.sync { closeNow() }.get()
    }

    /// Closes the utterance, unless it is closed already, and returns its words or failure
    /// (kept in `closed`). On the queue only.
    @discardableResult
    private func closeNow() -> Result<Transcript, SpeechError> {
        if let closed { return closed }
        let result: Result<Transcript, SpeechError>
        if let failed = failure.withLock({ $0 }) {
            result = .failure(failed)
        } else {
            do throws(SpeechError) {
                try decoder.endUtterance()
                var transcript = SphinxRecognizer.transcript(
                    from: decoder.segments, framesPerSecond: decoder.configuration.framesPerSecond)
                transcript.alternatives = SphinxRecognizer.otherReadings(of: decoder, than: transcript.text)
                result = .success(transcript)
            } catch {
                result = .failure(error)
            }
        }
        closed = result
        return result
    }

    /// Runs `work` on the queue, keeping its first failure.
    private func run(_ work: () throws(SpeechError) -> Void) {
        do throws(SpeechError) {
            try work()
        } catch {
            failure.withLock { if $0 == nil { $0 = error } }
        }
    }
}
