import Foundation

/// Everything a PocketSphinx decoder is built from: model files, search, front-end options.
///
/// The defaults are the Debian `pocketsphinx-en-us` model in
/// `SphinxConfiguration.defaultModelDirectory` (override with `SUSI_SPHINX_MODEL_DIR`).
/// Paths are checked when a decoder is created, not here.
public struct SphinxConfiguration: Sendable, Equatable {
    /// What the decoder listens for.
    public enum Search: Sendable, Equatable {
        /// Free speech scored by an n-gram language model (ARPA or binary `.lm.bin`).
        case languageModel(path: String)
        /// Sentences of a JSGF grammar file.
        case grammarFile(path: String)
        /// Sentences of a JSGF grammar given as text.
        case grammar(String)
        /// Spotting of key phrases, each with its own threshold; other speech is ignored.
        case keyphrases([Keyphrase])
    }

    /// Directory of the acoustic model (`-hmm`): `mdef`, `means`, `feat.params`, ...
    public var acousticModelPath: String
    /// Pronunciation dictionary (`-dict`), CMU format.
    public var dictionaryPath: String
    /// The search the decoder starts with.
    public var search: Search
    /// Rate of the audio that will be fed, in Hz (`-samprate`); the model expects 16000.
    public var sampleRate: Int
    /// Adds ±1 LSB of noise before the front end (`-dither`).
    ///
    /// On by default: synthesized or gated audio holds runs of exact digital zero, whose log
    /// energy upsets cepstral mean normalisation; real microphones never produce it.
    public var dither: Bool
    /// Seed of the dither noise (`-seed`); fixed so that decoding the same audio twice gives
    /// the same result. Negative picks a seed from the clock.
    public var ditherSeed: Int
    /// Any further PocketSphinx options, e.g. `["-beam": "1e-60"]`; keys include the dash.
    public var extraOptions: [String: String]
    /// Where PocketSphinx writes its (verbose) log; `nil` silences it.
    ///
    /// sphinxbase's log target is process-wide: the last decoder created decides it.
    public var logFile: String?

    /// A configuration for the model in `modelDirectory` (holding `en-us/`,
    /// `cmudict-en-us.dict` and `en-us.lm.bin`), decoding with its language model unless
    /// `search` says otherwise.
    public init(modelDirectory: String = SphinxConfiguration.defaultModelDirectory, search: Search? = nil) {
        let directory = URL(fileURLWithPath: modelDirectory)
        acousticModelPath = directory.appendingPathComponent("en-us").path
        dictionaryPath = directory.appendingPathComponent("cmudict-en-us.dict").path
        self.search = search ?? .languageModel(path: directory.appendingPathComponent("en-us.lm.bin").path)
        sampleRate = 16_000
        dither = true
        ditherSeed = 1
        extraOptions = [:]
        logFile = nil
    }

    /// The Debian model directory, or `SUSI_SPHINX_MODEL_DIR` when that is set and not empty.
    public static var defaultModelDirectory: String {
        if let value = ProcessInfo.processInfo.environment["SUSI_SPHINX_MODEL_DIR"], !value.isEmpty {
            return value
        }
        return "/usr/share/pocketsphinx/model/en-us"
    }

    /// Analysis frames per second (`-frate`, 100 unless overridden): converts frame numbers
    /// reported by the decoder to milliseconds.
    public var framesPerSecond: Int {
        if let value = extraOptions["-frate"], let rate = Int(value), rate > 0 { return rate }
        return 100
    }

    /// The command-line form PocketSphinx parses; the search is set after creation instead,
    /// so that it can be switched and built from text.
    var arguments: [String] {
        var options: [String: String] = [
            "-hmm": acousticModelPath,
            "-dict": dictionaryPath,
            "-samprate": String(sampleRate),
            "-dither": dither ? "yes" : "no",
            "-seed": String(ditherSeed),
        ]
        if let logFile { options["-logfn"] = logFile }
        options.merge(extraOptions) { _, extra in extra }
        return options.keys.sorted().flatMap { [$0, options[$0] ?? ""] }
    }

    /// The files that must exist for a decoder to start, with what each one is.
    var requiredFiles: [(path: String, role: String)] {
        var files = [
            (acousticModelPath, "acoustic model directory"),
            (URL(fileURLWithPath: acousticModelPath).appendingPathComponent("mdef").path, "acoustic model definition"),
            (dictionaryPath, "pronunciation dictionary"),
        ]
        switch search {
        case .languageModel(let path): files.append((path, "language model"))
        case .grammarFile(let path): files.append((path, "JSGF grammar"))
        case .grammar, .keyphrases: break
        }
        return files
    }
}
