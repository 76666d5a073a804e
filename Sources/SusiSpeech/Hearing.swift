import Foundation
import SusiCore
import SusiModel

/// Builds the speaker's ears from its config: the skill-aware recogniser and the verified
/// wake word detector, with the settings measured best on the dev corpus
/// (`bench/RESULTS.md`).
///
/// `susi run` and `susi transcribe` call these; the benchmark calls them too, so what is
/// measured is what runs.
public enum Hearing {
    /// Everything that decides how well the speaker hears; `init(config:)` gives the
    /// defaults the config selects.
    public struct Settings: Sendable, Equatable {
        /// Extra PocketSphinx options for the command recogniser (keys with the dash).
        public var recognizerOptions: [String: String]
        /// Extra PocketSphinx options for the open-question decoder (keys with the dash).
        public var openRecognizerOptions: [String: String]
        /// speexdsp preprocessing in front of the recogniser; nil for none.
        public var recognizerPreprocessing: SpeexPreprocessor.Settings?
        /// The noise floor kept under the recogniser's input, in dB under the speech (`NoiseFloor`); nil for none.
        public var recognizerNoiseFloor: Double?
        /// The wake phrase.
        public var wakePhrase: String
        /// The wake word detector: `neural` or `pocketsphinx` (`hotword.engine`).
        public var wakeEngine: String
        /// The neural detector's threshold; nil for the head's own (`hotword.neural_threshold`).
        public var neuralWakeThreshold: Double?
        /// Whether the neural front end runs on XNNPACK's kernels when it can (the benchmark
        /// turns it off to compare).
        public var neuralWakeAccelerated = true
        /// The neural detector's `stride`: embeddings every `stride`th step while no
        /// candidate is near.
        public var neuralWakeStride = NeuralWakeWordDetector.defaultStride
        /// The neural detector's `gate`: the rough score at which every step is scored again.
        public var neuralWakeGate = NeuralWakeWordDetector.defaultGate
        /// The neural detector's `confirmSteps` (0: a candidate counts at once).
        public var neuralWakeConfirmSteps = NeuralWakeWordDetector.defaultConfirmSteps
        /// The neural detector's `confirmThreshold`.
        public var neuralWakeConfirmThreshold = NeuralWakeWordDetector.defaultConfirmThreshold
        /// The neural detector's sure threshold; nil for its head's own.
        public var neuralWakeSureThreshold: Double?
        /// The neural detector's `steadySteps` (0: only the score itself makes a candidate sure).
        public var neuralWakeSteadySteps = NeuralWakeWordDetector.defaultSteadySteps
        /// The neural detector's `sureHoldSteps` (0: a candidate sure by its score is sure at once).
        public var neuralWakeSureHoldSteps = NeuralWakeWordDetector.defaultSureHoldSteps
        /// Keyphrase threshold of the wake detector's first stage.
        public var wakeThreshold: Double
        /// Phone-loop prior the keyphrase competes against (`-kws_plp`).
        public var wakePhoneLoopProbability: Double
        /// Extra PocketSphinx options for the wake detector.
        public var wakeOptions: [String: String]
        /// speexdsp preprocessing in front of the wake detector; nil for none.
        public var wakePreprocessing: SpeexPreprocessor.Settings?
        /// The noise floor kept under the wake detector's input, in dB under the speech; nil for none.
        public var wakeNoiseFloor: Double?
        /// Whether a candidate wake is re-decoded before it counts (`VerifiedWakeWordDetector`).
        public var verifyWake: Bool
        /// The phrase's prior in the verifier (`VerifiedWakeWordDetector` `phrasePrior`).
        public var wakeVerifierPrior: Double
        /// The verifier's `readingsMargin` (`hotword.verify_margin`).
        public var wakeVerifierMargin: Int
        /// Whether the recogniser's decoder holds the wake verifier's search, so that the
        /// verifier needs no acoustic model of its own (about 8 MB); the benchmark turns it
        /// off to compare.
        public var shareWakeVerifier = true
        /// Whether the recogniser also hears open questions: the query domain, SUSI.AI's skill
        /// examples and generic English (`stt.open_questions`, not in `local` mode, whose
        /// brain answers only its skills).
        public var openQuestions: Bool
        /// How many of the generic model's likeliest words the second search can hear besides
        /// those of the skills and the query domain.
        public var genericWords: Int
        /// The share of those generic words' unigrams mixed into every n-gram of the open model.
        public var genericWeight: Double
        /// Count weight of each query-domain template against a skill sentence's 1.
        public var queryWeight: Double

        /// The measured defaults, adjusted by `config` (`hotword.*`, `stt.*`).
        public init(config: Config = Config()) {
            recognizerOptions = Hearing.defaultRecognizerOptions
            openRecognizerOptions = Hearing.defaultOpenRecognizerOptions
            recognizerPreprocessing = config.stt.noiseSuppression ? SpeexPreprocessor.Settings() : nil
            recognizerNoiseFloor = Hearing.defaultNoiseFloor
            wakeNoiseFloor = nil
            wakePhrase = config.hotword.phrase
            wakeEngine = config.hotword.engine
            neuralWakeThreshold = config.hotword.neuralThreshold > 0 ? config.hotword.neuralThreshold : nil
            wakeThreshold = config.hotword.threshold
            wakePhoneLoopProbability = SphinxWakeWordDetector.defaultPhoneLoopProbability
            wakeOptions = [:]
            wakePreprocessing = config.stt.noiseSuppression ? SpeexPreprocessor.Settings() : nil
            verifyWake = config.hotword.verify
            wakeVerifierPrior = Hearing.defaultVerifierPrior
            wakeVerifierMargin = config.hotword.verifyMargin
            openQuestions = config.stt.openQuestions && config.brain.mode != "local"
            genericWords = Hearing.defaultGenericWords
            genericWeight = Hearing.defaultGenericWeight
            queryWeight = Hearing.defaultQueryWeight
        }

        /// Takes the keyphrase threshold from `calibration` when it is for this wake phrase,
        /// the phrase is not the default one (whose threshold was tuned by hand), and
        /// `hotword.threshold` was left at its default: a threshold set by hand wins.
        public mutating func apply(_ calibration: WakeCalibration?, config: Config) {
            guard let calibration, calibration.phrase == Keyphrase(wakePhrase).phrase,
                Keyphrase(wakePhrase).phrase != Keyphrase(Config().hotword.phrase).phrase,
                config.hotword.threshold == Config().hotword.threshold
            else { return }
            wakeThreshold = calibration.threshold
        }
    }

    /// Noise floor under the recogniser's input, in dB under the speech peaks; measured on the
    /// dev corpus (bench/RESULTS.md).
    public static let defaultNoiseFloor: Double? = 30

    /// The cleaning steps `speex` and `floor` ask for, in order: suppression first, so
    /// that the floor is what remains under the speech.
    static func preprocessors(speex: SpeexPreprocessor.Settings?, floor: Double?) throws(SpeechError) -> [any SamplePreprocessor]
    {
        var steps: [any SamplePreprocessor] = []
        if let speex { steps.append(try SpeexPreprocessor(settings: speex)) }
        if let floor { steps.append(NoiseFloor(signalToNoiseDecibels: floor)) }
        return steps
    }

    /// The wake phrase's prior in the verifier, measured on the dev corpus (bench/RESULTS.md).
    public static let defaultVerifierPrior = 0.3

    /// PocketSphinx options for commands, chosen on the dev corpus (see bench/RESULTS.md): a
    /// first-pass language weight of 4 (PocketSphinx's is 6.5) lets more of what the sounds
    /// say into the lattice, where the skills then pick among the readings. Scoring each frame
    /// against the 8 closest Gaussians of each codebook (`-topn`, PocketSphinx's is 4) hears
    /// commands in noise better, at about 30 ms more to finish a command.
    public static let defaultRecognizerOptions: [String: String] = ["-lw": "4", "-topn": "8"]

    /// PocketSphinx options for the open-question decoder, chosen on the open-question
    /// benchmark's dev split (bench/RESULTS.md): its own first-pass language weight of 6.5
    /// (PocketSphinx's), not the skills' 4, which lets more of what the sounds say into the
    /// lattice for the skills to pick from; free questions have no skill to pick for them.
    public static let defaultOpenRecognizerOptions: [String: String] = ["-lw": "6.5", "-topn": "8"]

    /// The generic model's words in the recogniser's dictionary (bench/RESULTS.md).
    public static let defaultGenericWords = 5000
    /// The generic words' share in every n-gram of the open model (`NGramModel`'s
    /// `backgroundWeight`; 0: measured, bench/RESULTS.md).
    public static let defaultGenericWeight = 0.0
    /// A query-domain template's weight (bench/RESULTS.md).
    public static let defaultQueryWeight = 2.0

    /// PocketSphinx's generic English model (`en-us.lm.bin` beside the acoustic model).
    public static var genericModelPath: String {
        URL(fileURLWithPath: SphinxConfiguration.defaultModelDirectory).appendingPathComponent("en-us.lm.bin").path
    }

    /// The commands that name the Home Assistant's entities and areas, from the names last
    /// fetched from `home_assistant.url` (`HomeDirectory`, in the cache directory); none when
    /// no Home Assistant is set up or none was fetched yet (the next start has them).
    public static func homeIntents(config: Config, cacheDirectory: String) -> [SkillPhrasings.Intent] {
        var url = config.homeAssistant.url
        while url.hasSuffix("/") { url.removeLast() }
        guard !url.isEmpty, let names = HomeDirectory.read(from: cacheDirectory), names.server == url else { return [] }
        return [SkillPhrasings.Intent(skill: "home-assistant-names", patterns: [], examples: names.sentences())]
    }

    /// The recogniser's side search that hears only the Home Assistant's commands (its names
    /// made into `HomeDirectory.sentences`), when there are any:
    /// `SphinxRecognizer.decodeAgain(withSideSearch:)`.
    public static let homeCommandsSearch = "home-commands"

    /// The recogniser for commands: PocketSphinx with the language model generated from the
    /// skills in `skillsDirectory` (built on first use and cached in `cacheDirectory`), and
    /// a pronunciation for every word it uses.
    ///
    /// Slow the first time the skills change (a second or two to build the model), fast
    /// afterwards. `modelsDirectory` is the repository's `models` (for the hotword
    /// dictionary); the acoustic model is `SphinxConfiguration.defaultModelDirectory`'s.
    ///
    /// With `Settings.openQuestions`, a second decoder holds the open-domain model (the skills,
    /// the query domain, SUSI.AI's skill examples, over generic English's frequent words). It
    /// decodes each command beside the skills' search as the audio comes;
    /// `SphinxRecognizer.decodeAgain` gives its reading when no skill is sure of the first one. One model for both was measured to cost the skills nine points of intent
    /// accuracy (bench/RESULTS.md); two passes leave the skills' figures as they were.
    ///
    /// Unless `hotword.verify` is off, the recogniser's decoder also holds the wake verifier's
    /// search (`VerifiedWakeWordDetector.sideSearch`): give the recogniser to
    /// `makeWakeDetector` as `host`, and the verifier loads no acoustic model of its own.
    ///
    /// - Throws: `stt-model-missing`, `stt-init-failed`, `stt-bad-pronunciation`.
    public static func makeRecognizer(
        config: Config, modelsDirectory: String, skillsDirectory: String, cacheDirectory: String,
        settings: Settings? = nil, logger: Logger = .silent
    ) throws(SpeechError) -> SphinxRecognizer {
        let settings = settings ?? Settings(config: config)
        let hotwords = try hotwordDictionaries(modelsDirectory: modelsDirectory)
        let preferred = try parsed(PronunciationDictionary.commandDictionaries(modelsDirectory: modelsDirectory))
        let home = homeIntents(config: config, cacheDirectory: cacheDirectory)
        let model = try SkillLanguageModel.prepare(
            skillsDirectory: skillsDirectory, cacheDirectory: cacheDirectory, preferred: preferred, extraIntents: home,
            logger: logger)
        var open: SkillLanguageModel?
        if settings.openQuestions {
            let openDomain = SkillLanguageModel.OpenDomain(
                queries: QuerySentences(directory: modelsDirectory + "/language"),
                examples: SkillExampleCache.read(from: cacheDirectory)?.examples ?? [],
                genericModelPath: genericModelPath, genericWords: settings.genericWords,
                genericWeight: settings.genericWeight, queryWeight: settings.queryWeight)
            open = try SkillLanguageModel.prepare(
                skillsDirectory: skillsDirectory, cacheDirectory: cacheDirectory, preferred: preferred,
                openDomain: openDomain, extraIntents: home, logger: logger)
        }
        var configuration = SphinxConfiguration(search: .languageModel(path: model.languageModelPath))
        configuration.dictionaryPath = model.dictionaryPath
        configuration.extraOptions = settings.recognizerOptions
        let steps = try preprocessors(speex: settings.recognizerPreprocessing, floor: settings.recognizerNoiseFloor)
        var verifier: (search: SphinxDecoder.SideSearch, words: PronunciationDictionary, modelFile: String)?
        if settings.verifyWake, settings.shareWakeVerifier {
            do {
                verifier = try VerifiedWakeWordDetector.sideSearch(
                    phrase: settings.wakePhrase, dictionaries: hotwords, phrasePrior: settings.wakeVerifierPrior)
            } catch {
                // The verifier then loads a decoder of its own.
                logger.warning("the recogniser holds no wake verifier: \(error.message)")
            }
        }
        defer { if let verifier { try? FileManager.default.removeItem(atPath: verifier.modelFile) } }
        var sideSearches = verifier.map { [$0.search] } ?? []
        if let grammar = CommandGrammar.jsgf(home.flatMap(\.examples)) {
            sideSearches.append(
                SphinxDecoder.SideSearch(
                    name: homeCommandsSearch, search: .grammar(grammar),
                    options: ["-lw": settings.recognizerOptions["-lw"] ?? "4"]))
        }
        let recognizer = try SphinxRecognizer(
            configuration: configuration, dictionaries: verifier.map { [$0.words] } ?? [], sideSearches: sideSearches,
            preprocessors: steps, logger: logger)
        if let open {
            var second = SphinxConfiguration(search: .languageModel(path: open.languageModelPath))
            second.dictionaryPath = open.dictionaryPath
            second.extraOptions = settings.openRecognizerOptions
            try recognizer.setSecondSearch(second)
        }
        return recognizer
    }

    /// The wake word detector for `hotword.engine`: the neural detector
    /// (`NeuralWakeWordDetector`, files in `modelsDirectory/hotword`), or a keyphrase search
    /// for `hotword.phrase` at `hotword.threshold`; unless `hotword.verify` is off, a second
    /// decoding of each candidate before it counts.
    ///
    /// When the neural detector's files (`make deps`, `make wakeword`) are missing or unusable
    /// it logs one warning and returns the keyphrase search instead: a speaker without them
    /// still wakes.
    ///
    /// The verifier decodes with `host`'s decoder when `host` (from `makeRecognizer`) holds its
    /// search for this phrase, with a decoder of its own otherwise (no host, or a phrase
    /// changed since the recogniser was made).
    ///
    /// - Throws: `wake-init-failed`, `wake-unknown-word` (the keyphrase search's).
    public static func makeWakeDetector(
        config: Config, modelsDirectory: String, settings: Settings? = nil, host: SphinxRecognizer? = nil,
        logger: Logger = .silent
    ) throws(SpeechError) -> any WakeWordDetector {
        let settings = settings ?? Settings(config: config)
        if settings.wakeEngine == "neural" {
            do {
                return try makeNeuralWakeDetector(
                    modelsDirectory: modelsDirectory, settings: settings, host: host, logger: logger)
            } catch {
                logger.warning("neural wake word unavailable, listening with pocketsphinx instead: \(error.message)")
            }
        }
        return try makeKeyphraseWakeDetector(
            config: config, modelsDirectory: modelsDirectory, settings: settings, host: host, logger: logger)
    }

    /// `host` when it holds the wake verifier's search for `settings`, else nil (and a note).
    private static func verifierHost(_ host: SphinxRecognizer?, settings: Settings, logger: Logger) -> SphinxRecognizer? {
        guard let host else { return nil }
        let name = VerifiedWakeWordDetector.searchName(phrase: settings.wakePhrase, phrasePrior: settings.wakeVerifierPrior)
        guard host.decoder.sideSearchNames.contains(name) else {
            logger.info("the wake verifier loads its own acoustic model (about 8 MB) until the next start")
            return nil
        }
        return host
    }

    /// The neural detector for `settings.wakePhrase`, verified unless `settings.verifyWake`
    /// is off.
    ///
    /// - Throws: `wake-model-missing`, `wake-init-failed`.
    public static func makeNeuralWakeDetector(
        modelsDirectory: String, settings: Settings, host: SphinxRecognizer? = nil, logger: Logger = .silent
    ) throws(SpeechError) -> any WakeWordDetector {
        let files = NeuralWakeWordDetector.files(modelsDirectory: modelsDirectory, phrase: settings.wakePhrase)
        let detector = try NeuralWakeWordDetector(
            frontEndDirectory: files.frontEnd, headPath: files.head, threshold: settings.neuralWakeThreshold,
            sureThreshold: settings.neuralWakeSureThreshold,
            accelerated: settings.neuralWakeAccelerated, stride: settings.neuralWakeStride, gate: settings.neuralWakeGate,
            confirmSteps: settings.neuralWakeConfirmSteps, confirmThreshold: settings.neuralWakeConfirmThreshold,
            steadySteps: settings.neuralWakeSteadySteps, sureHoldSteps: settings.neuralWakeSureHoldSteps, logger: logger)
        guard settings.verifyWake else { return detector }
        // Candidates at the head's sure threshold wake at once; the rest are decoded again.
        if let host = verifierHost(host, settings: settings, logger: logger) {
            return try VerifiedWakeWordDetector(
                candidates: detector, phrase: settings.wakePhrase, phoneCount: 0, host: host,
                phrasePrior: settings.wakeVerifierPrior, readingsMargin: settings.wakeVerifierMargin,
                trusted: { [detector] in detector.isSure($0) }, logger: logger)
        }
        return try VerifiedWakeWordDetector(
            candidates: detector, phrase: settings.wakePhrase, phoneCount: 0,
            dictionaries: hotwordDictionaries(modelsDirectory: modelsDirectory),
            phrasePrior: settings.wakeVerifierPrior, readingsMargin: settings.wakeVerifierMargin,
            trusted: { [detector] in detector.isSure($0) }, logger: logger)
    }

    /// The keyphrase search (PocketSphinx) for `hotword.phrase` at `hotword.threshold`, and,
    /// unless `hotword.verify` is off, a second decoding of each candidate before it counts.
    ///
    /// - Throws: `wake-init-failed`, `wake-unknown-word`.
    public static func makeKeyphraseWakeDetector(
        config: Config, modelsDirectory: String, settings: Settings? = nil, host: SphinxRecognizer? = nil,
        logger: Logger = .silent
    ) throws(SpeechError) -> any WakeWordDetector {
        let settings = settings ?? Settings(config: config)
        let hotwords: [PronunciationDictionary]
        do {
            hotwords = try hotwordDictionaries(modelsDirectory: modelsDirectory)
        } catch {
            throw SpeechError(.wakeInitFailed, error.message)
        }
        var configuration = SphinxConfiguration()
        configuration.extraOptions = settings.wakeOptions
        configuration.extraOptions["-kws_plp"] = "\(settings.wakePhoneLoopProbability)"
        let keyphrase = Keyphrase(settings.wakePhrase, threshold: settings.wakeThreshold)
        // The spotter only needs the phrase's own words, not all of cmudict.
        let dictionary: String
        do {
            dictionary = try PronunciationDictionary.writeSubset(of: configuration.dictionaryPath, words: Set(keyphrase.words))
        } catch {
            throw SpeechError(.wakeInitFailed, error.message)
        }
        defer { try? FileManager.default.removeItem(atPath: dictionary) }
        configuration.dictionaryPath = dictionary
        let steps: [any SamplePreprocessor]
        do {
            steps = try preprocessors(speex: settings.wakePreprocessing, floor: settings.wakeNoiseFloor)
        } catch {
            throw SpeechError(.wakeInitFailed, error.message)
        }
        let spotter = try SphinxWakeWordDetector(
            keyphrases: [keyphrase], configuration: configuration, dictionaries: hotwords,
            preprocessors: steps, logger: logger)
        guard settings.verifyWake else { return spotter }
        if let host = verifierHost(host, settings: settings, logger: logger) {
            return try VerifiedWakeWordDetector(
                spotter: spotter, phrase: keyphrase.phrase, host: host, phrasePrior: settings.wakeVerifierPrior,
                readingsMargin: settings.wakeVerifierMargin, logger: logger)
        }
        return try VerifiedWakeWordDetector(
            spotter: spotter, phrase: keyphrase.phrase, dictionaries: hotwords,
            phrasePrior: settings.wakeVerifierPrior, readingsMargin: settings.wakeVerifierMargin, logger: logger)
    }

    /// The `.dict` files of `modelsDirectory/hotword`, parsed.
    static func hotwordDictionaries(modelsDirectory: String) throws(SpeechError) -> [PronunciationDictionary] {
        try parsed(PronunciationDictionary.hotwordDictionaries(modelsDirectory: modelsDirectory))
    }

    /// The dictionary files at `paths`, parsed.
    private static func parsed(_ paths: [String]) throws(SpeechError) -> [PronunciationDictionary] {
        var result: [PronunciationDictionary] = []
        for path in paths { result.append(try PronunciationDictionary(contentsOf: path)) }
        return result
    }
}
