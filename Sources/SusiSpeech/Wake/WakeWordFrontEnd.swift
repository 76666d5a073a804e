import Foundation
import SusiCore

/// The neural wake word's frozen audio front end: openWakeWord's melspectrogram model, then
/// Google's speech-embedding model, both run by TensorFlow Lite, streaming.
///
/// Every 1,280 new samples (80 ms) the melspectrogram model reads the last 1,760 and gives 8
/// frames of 32 mel bands (scaled `x / 10 + 2`, as the embedding model was trained); once 80
/// frames have arrived, each new chunk gives one embedding of 96 values computed from the
/// last 76 frames (775 ms). `bench/wakeword/frontend.py` computes exactly this for training.
/// Not thread-safe.
final class WakeWordFrontEnd {
    /// New samples per step (80 ms at 16 kHz).
    static let chunkLength = 1280
    /// Samples the melspectrogram model reads per step: the chunk and 480 before it.
    static let melInputLength = 1760
    /// Mel frames per step.
    static let melFramesPerChunk = 8
    /// Mel frames the embedding model reads.
    static let melWindow = 76
    /// Mel bands per frame.
    static let bands = 32
    /// Values per embedding.
    static let features = 96
    /// The files a front-end directory holds.
    static let libraryFile = "libtensorflowlite_c.so"
    static let melspectrogramFile = "melspectrogram.tflite"
    static let embeddingFile = "embedding_model.tflite"

    private let melModel: TensorFlowLiteModel
    private let embeddingModel: TensorFlowLiteModel
    /// How many steps back `embedding(stepsBack:)` can reach (the mel frames kept for it).
    let reach: Int
    /// Samples not yet turned into mel frames, with the 480 the next step also reads.
    private var pending: [Float]
    /// The last `melWindow + melFramesPerChunk * reach` mel frames, oldest first, flattened.
    private var mels: [Float]
    /// Mel frames computed since the start (embeddings begin at 80).
    private var melFrames = 0
    /// Samples turned into mel frames so far; an embedding ends here.
    private(set) var samplesDone = 0
    /// Samples still to come before the next step ends (1...`chunkLength`).
    var framesToNextStep: Int { Self.melInputLength - pending.count }
    private var melOutput: [Float]
    /// The mel frames and pending samples `rememberQuiet` kept, which `forgetHistory` restores.
    private var quiet: (mels: [Float], pending: [Float])?

    /// Whether both models run on XNNPACK's kernels (`TensorFlowLiteModel`).
    var isAccelerated: Bool { melModel.isAccelerated && embeddingModel.isAccelerated }
    /// Whether XNNPACK was asked for but refused: it did not compute what the reference
    /// kernels do on this machine.
    var acceleratorDisagreed: Bool { melModel.acceleratorDisagreed || embeddingModel.acceleratorDisagreed }

    /// Loads `libtensorflowlite_c.so`, `melspectrogram.tflite` and `embedding_model.tflite`
    /// from `directory`; `accelerated` runs them on XNNPACK when the library has it. `reach`:
    /// how many steps back an embedding may still be asked for (`embedding(stepsBack:)`).
    ///
    /// - Throws: `wake-model-missing` when one is absent, `wake-init-failed` when TensorFlow
    ///   Lite refuses it.
    init(directory: String, accelerated: Bool = true, reach: Int = 0) throws(SpeechError) {
        let library = try TensorFlowLite(path: directory + "/" + Self.libraryFile)
        // Each model is checked on XNNPACK against the reference kernels with an input like
        // its own: a voiced sound's samples, and mel values around 2.
        let voiced = (0..<Self.melInputLength).map { index in
            let t = Double(index)
            return Float(4000 * sin(t * 0.21) * sin(t * 0.0031) + 1500 * sin(t * 1.7))
        }
        let frames = (0..<(Self.melWindow * Self.bands)).map { index in
            Float(2 + sin(Double(index) * 0.37) + 0.5 * cos(Double(index) * 1.3))
        }
        melModel = try TensorFlowLiteModel(
            library: library, path: directory + "/" + Self.melspectrogramFile, inputShape: [1, Int32(Self.melInputLength)],
            accelerated: accelerated, probe: voiced)
        embeddingModel = try TensorFlowLiteModel(
            library: library, path: directory + "/" + Self.embeddingFile,
            inputShape: [1, Int32(Self.melWindow), Int32(Self.bands), 1], accelerated: accelerated, probe: frames)
        guard melModel.outputCount == Self.melFramesPerChunk * Self.bands, embeddingModel.outputCount == Self.features
        else {
            throw SpeechError(
                .wakeInitFailed,
                "the wake word front end in \(directory) is not openWakeWord's (outputs \(melModel.outputCount), \(embeddingModel.outputCount))"
            )
        }
        // TensorFlow Lite read both mapped models whole and runs on its own copy of the weights.
        MappedPages.release(under: directory + "/" + Self.melspectrogramFile, directory + "/" + Self.embeddingFile)
        self.reach = max(0, reach)
        pending = [Float](repeating: 0, count: Self.melInputLength - Self.chunkLength)
        mels = [Float](repeating: 0, count: (Self.melWindow + Self.melFramesPerChunk * self.reach) * Self.bands)
        melOutput = [Float](repeating: 0, count: melModel.outputCount)
    }

    /// Keeps the mel frames and the samples the next step reads of what was heard last (a
    /// quiet room, a whole number of steps) for `forgetHistory`.
    func rememberQuiet() {
        quiet = (mels, pending)
    }

    /// Replaces the mel frames that the next embeddings would still hear (the last 775 ms, and
    /// `reach` steps before) with the quiet room `rememberQuiet` kept, so that audio from
    /// before a reset cannot complete a phrase after it. The samples not yet turned into frames
    /// are dropped too (counted as done): the steps after it end where a fresh front end's
    /// would, every 80 ms from here, whatever part of a step had been heard before.
    func forgetHistory() {
        guard let quiet else { return }
        mels = quiet.mels
        samplesDone += pending.count - quiet.pending.count
        pending = quiet.pending
    }

    /// Consumes 16 kHz samples; calls `embedding` with each new embedding (96 values) and the
    /// sample count at which its audio ends.
    func process(_ samples: [Int16], embedding: ([Float], Int) throws(SpeechError) -> Void) throws(SpeechError) {
        try process(samples) { end throws(SpeechError) in try embedding(try self.embedding(), end) }
    }

    /// Consumes 16 kHz samples and turns them into mel frames; calls `step` with the sample
    /// count at which each new 80 ms step ends, once there are frames enough for an
    /// embedding. `step` may ask for the embeddings it wants (`embedding(stepsBack:)`): the
    /// mel frames are cheap, the embedding model is most of the front end's cost.
    func process(_ samples: [Int16], step: (Int) throws(SpeechError) -> Void) throws(SpeechError) {
        pending.reserveCapacity(pending.count + samples.count)
        for sample in samples { pending.append(Float(sample)) }
        var start = 0
        while pending.count - start >= Self.melInputLength {
            try pending.withUnsafeBufferPointer { all throws(SpeechError) in
                try melOutput.withUnsafeMutableBufferPointer { out throws(SpeechError) in
                    try melModel.run(UnsafeBufferPointer(rebasing: all[start..<(start + Self.melInputLength)]), into: out)
                }
            }
            start += Self.chunkLength
            samplesDone += Self.chunkLength
            mels.removeFirst(Self.melFramesPerChunk * Self.bands)
            for value in melOutput { mels.append(value / 10 + 2) }
            melFrames += Self.melFramesPerChunk
            guard melFrames >= Self.melWindow + 4 else { continue }
            try step(samplesDone)
        }
        pending.removeFirst(start)
    }

    /// The embedding of the step `stepsBack` steps before the last one `process` reported
    /// (0: the last), from the mel frames kept (`reach`).
    ///
    /// - Throws: `wake-decode-failed` when TensorFlow Lite fails, or the step is out of reach.
    func embedding(stepsBack: Int = 0) throws(SpeechError) -> [Float] {
        guard stepsBack >= 0, stepsBack <= reach else {
            throw SpeechError(.wakeDecodeFailed, "wake word front end asked for \(stepsBack) steps back, keeps \(reach)")
        }
        let end = mels.count - stepsBack * Self.melFramesPerChunk * Self.bands
        var values = [Float](repeating: 0, count: Self.features)
        try mels.withUnsafeBufferPointer { all throws(SpeechError) in
            try values.withUnsafeMutableBufferPointer { out throws(SpeechError) in
                try embeddingModel.run(UnsafeBufferPointer(rebasing: all[(end - Self.melWindow * Self.bands)..<end]), into: out)
            }
        }
        return values
    }
}
