import Foundation
import SusiCore
import SusiModel

/// The recogniser's language model and dictionary, generated from the skills and cached.
///
/// `prepare` expands the skills' patterns and examples into sentences (`SkillSentences`),
/// estimates a trigram model (`NGramModel`), and writes it as ARPA text together with a
/// small dictionary holding a pronunciation for every word of the model (cmudict's, else
/// eSpeak NG's mapped to CMU phones). Files are named by a hash of the skill files, the
/// dictionaries and this builder's version, so a changed skill gives a new model and an
/// unchanged one is loaded from the cache without work.
public struct SkillLanguageModel: Sendable, Equatable, Codable {
    /// The ARPA language model.
    public var languageModelPath: String
    /// The CMU-format dictionary of every word the model uses (give it as `-dict`).
    public var dictionaryPath: String
    /// The words of the model, without sentence markers.
    public var vocabulary: [String]
    /// Words not in cmudict, with the pronunciation made for them from eSpeak NG.
    public var generatedPronunciations: [String: String]
    /// Whether this call built the files (false: they came from the cache).
    public var wasBuilt: Bool
    /// Number of distinct training sentences.
    public var sentenceCount: Int

    /// Bumped whenever the generation changes, so caches from older builders are not reused.
    static let builderVersion = "8"
    /// File name prefix of the cached files; older files with it are removed on a rebuild.
    static let filePrefix = "skills-"
    /// The prefix of the open-domain model's files, kept beside the skills-only model's.
    static let openFilePrefix = "open-"

    /// Builds (or loads from `cacheDirectory`) the model for the skills in `skillsDirectory`.
    ///
    /// `cmudictPath` is the full pronunciation dictionary (the Debian model's
    /// `cmudict-en-us.dict`); `preferred` dictionaries (the hotword's) win over it for their
    /// words and are added to the generated dictionary whole. The cache directory is created
    /// when missing; files are written atomically, so a concurrent reader sees a whole file.
    ///
    /// `extraIntents` are phrasings from elsewhere than the skill files (the Home Assistant's
    /// names: `HomeDirectory.sentences`); a change of them builds a new model too.
    ///
    /// - Throws: `stt-model-missing` for an unreadable skills directory or dictionary,
    ///   `stt-init-failed` when the cache cannot be written or no sentence came out.
    public static func prepare(
        skillsDirectory: String, cacheDirectory: String,
        cmudictPath: String = SphinxConfiguration().dictionaryPath,
        preferred: [PronunciationDictionary] = [], openDomain: OpenDomain? = nil,
        extraIntents: [SkillPhrasings.Intent] = [], logger: Logger = .silent
    ) throws(SpeechError) -> SkillLanguageModel {
        var phrasings = try SkillPhrasings(directory: skillsDirectory)
        phrasings.intents += extraIntents
        var key = FNV1a()
        key.add(builderVersion)
        key.add(phrasings.contentHash)
        for intent in extraIntents {
            key.add(intent.skill)
            for example in intent.examples { key.add(example + "\n") }
        }
        if let openDomain { key.add(openDomain.cacheKey) }
        key.add(cmudictPath)
        let size = (try? FileManager.default.attributesOfItem(atPath: cmudictPath)[.size] as? Int) ?? 0
        key.add(String(size))
        for dictionary in preferred {
            for entry in dictionary.entries { key.add("\(entry.word) \(entry.phones)\n") }
        }
        let prefix = openDomain == nil ? filePrefix : openFilePrefix
        let base = URL(fileURLWithPath: cacheDirectory).appendingPathComponent(prefix + key.hex)
        let arpaPath = base.path + ".arpa"
        let dictPath = base.path + ".dict"
        let metadataPath = base.path + ".json"
        let fileManager = FileManager.default
        if let cached = readCached(metadataPath: metadataPath), cached.languageModelPath == arpaPath {
            logger.debug("language model from cache: \(arpaPath)")
            return cached
        }
        var model = try build(phrasings: phrasings, cmudictPath: cmudictPath, preferred: preferred, openDomain: openDomain)
        do {
            try fileManager.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
            // Older models go, with the lock files their writes left (`.skills-HASH.arpa.lock`).
            for old in (try? fileManager.contentsOfDirectory(atPath: cacheDirectory)) ?? []
            where (old.hasPrefix(prefix) && !old.hasPrefix(base.lastPathComponent))
                || (old.hasPrefix("." + prefix) && old.hasSuffix(".lock") && !old.hasPrefix("." + base.lastPathComponent))
            {
                try? fileManager.removeItem(atPath: URL(fileURLWithPath: cacheDirectory).appendingPathComponent(old).path)
            }
            try writeAtomically(model.arpa, to: arpaPath)
            try writeAtomically(model.dictionary, to: dictPath)
            model.result.languageModelPath = arpaPath
            model.result.dictionaryPath = dictPath
            let metadata = try JSONEncoder().encode(model.result)
            // Written last: its presence says the other two files are complete.
            try writeAtomically(String(decoding: metadata, as: UTF8.self), to: metadataPath)
        } catch {
            throw SpeechError(.initFailed, "cannot write the language model to \(cacheDirectory): \(error)")
        }
        logger.info(
            "built the language model from \(phrasings.intents.count) intents: \(model.result.sentenceCount) sentences, "
                + "\(model.result.vocabulary.count) words (\(model.result.generatedPronunciations.count) pronounced by eSpeak NG)"
        )
        return model.result
    }

    /// The model of `phrasings`, as text not yet written.
    static func build(
        phrasings: SkillPhrasings, cmudictPath: String, preferred: [PronunciationDictionary], openDomain: OpenDomain? = nil
    ) throws(SpeechError) -> (arpa: String, dictionary: String, result: SkillLanguageModel) {
        var spelled = SkillSentences.sentences(from: phrasings)
        var backgroundWords: [String] = []
        var generic: GenericUnigrams?
        if let openDomain {
            spelled += openDomain.queries.sentences(weight: openDomain.queryWeight)
            spelled += openDomain.examples.map(SkillSentences.words(of:)).filter { !$0.isEmpty }.map {
                SkillSentences.Sentence(words: $0, weight: openDomain.exampleWeight)
            }
            if let path = openDomain.genericModelPath, openDomain.genericWords > 0 {
                let unigrams = try GenericUnigrams(contentsOf: path)
                backgroundWords = unigrams.frequentWords(limit: openDomain.genericWords)
                generic = unigrams
            }
        }
        var lexicon = try Lexicon(cmudictPath: cmudictPath, words: Set(spelled.flatMap(\.words) + backgroundWords))
        for dictionary in preferred { lexicon.prefer(dictionary) }
        let sentences = spelled.map { sentence in
            (words: sentence.words.map(lexicon.canonical), weight: sentence.weight)
        }
        guard !sentences.isEmpty else {
            throw SpeechError(.initFailed, "the skills gave no sentence to build a language model from")
        }
        var dictionaryLines: [String] = []
        var usable: Set<String> = []
        let vocabulary = Set(sentences.flatMap(\.words)).sorted()
        // eSpeak NG's readings, asked for in two lists: it keeps memory from every voice load.
        let british = phonemized(vocabulary.filter { !lexicon.known($0).isEmpty }.map(Lexicon.spoken), voice: "en-gb")
        let american = phonemized(vocabulary.filter { lexicon.known($0).isEmpty }.map(Lexicon.spoken), voice: "en-us")
        for word in vocabulary {
            let phones = lexicon.pronounce(
                word, phonemize: { american[$0] ?? [] }, phonemizeBritish: { british[$0] ?? [] })
            guard !phones.isEmpty else { continue }
            usable.insert(word)
            for (index, pronunciation) in phones.enumerated() {
                dictionaryLines.append((index == 0 ? word : "\(word)(\(index + 1))") + " " + pronunciation)
            }
        }
        // The generic model's frequent words, pronounced only when cmudict knows them.
        for word in backgroundWords where !usable.contains(word) && word.allSatisfy({ $0.isLetter || $0 == "'" }) {
            let phones = lexicon.known(word)
            guard !phones.isEmpty else { continue }
            usable.insert(word)
            for (index, pronunciation) in phones.enumerated() {
                dictionaryLines.append((index == 0 ? word : "\(word)(\(index + 1))") + " " + pronunciation)
            }
        }
        for dictionary in preferred {
            for entry in dictionary.entries where !usable.contains(entry.word) {
                usable.insert(entry.word)
                let count = lexicon.known(entry.word).firstIndex(of: entry.phones).map { $0 + 1 } ?? 1
                dictionaryLines.append((count == 1 ? entry.word : "\(entry.word)(\(count))") + " " + entry.phones)
            }
        }
        // A word nobody can pronounce cannot be recognised; its sentences are dropped.
        let kept = sentences.filter { $0.words.allSatisfy(usable.contains) }
        // Generic English at the bottom of the interpolation: the generic model's unigrams of
        // its frequent words, so they can be heard outside the sentences too.
        var background: [String: Double] = [:]
        if let generic {
            for word in backgroundWords where usable.contains(word) {
                if let log10Probability = generic.log10Probabilities[word] { background[word] = pow(10, log10Probability) }
            }
        }
        let model = NGramModel(
            sentences: kept, order: 3, background: background, backgroundWeight: openDomain?.genericWeight ?? 0)
        let result = SkillLanguageModel(
            languageModelPath: "", dictionaryPath: "",
            vocabulary: model.vocabulary.filter { $0 != NGramModel.sentenceStart && $0 != NGramModel.sentenceEnd },
            generatedPronunciations: lexicon.generated, wasBuilt: true, sentenceCount: kept.count)
        return (model.arpa, dictionaryLines.joined(separator: "\n") + "\n", result)
    }

    /// eSpeak NG's phonemes of each of `words` in `voice`; empty when eSpeak NG is missing.
    private static func phonemized(_ words: [String], voice: String) -> [String: [String]] {
        guard let engine = try? ESpeakEngine.shared(), let phonemes = try? engine.phonemes(of: words, voice: voice) else {
            return [:]
        }
        return Dictionary(zip(words, phonemes), uniquingKeysWith: { first, _ in first })
    }

    /// What the model knows beyond the skills: the query domain, SUSI.AI's skill examples
    /// and the generic English model's frequent words.
    public struct OpenDomain: Sendable {
        /// The query-domain templates and entity classes (`models/language`).
        public var queries: QuerySentences
        /// Example queries of SUSI.AI's skills (from the CMS, cached); may be empty.
        public var examples: [String]
        /// The generic model whose frequent words join the model; nil for none.
        public var genericModelPath: String?
        /// How many of its likeliest words join the model, with its unigram probabilities at
        /// the bottom of the model's interpolation (`NGramModel`'s `background`).
        public var genericWords: Int
        /// The share of the generic words' unigrams mixed into every n-gram of the model
        /// (`NGramModel`'s `backgroundWeight`).
        public var genericWeight: Double
        /// Count weight of each query template (split over its fillings).
        public var queryWeight: Double
        /// Count weight of each SUSI.AI example.
        public var exampleWeight: Double

        /// The parts of an open-domain model; weights as measured (bench/RESULTS.md).
        public init(
            queries: QuerySentences, examples: [String] = [], genericModelPath: String? = nil, genericWords: Int = 0,
            genericWeight: Double = 0, queryWeight: Double = 2, exampleWeight: Double = 1
        ) {
            self.queries = queries
            self.examples = examples
            self.genericModelPath = genericModelPath
            self.genericWords = genericWords
            self.genericWeight = genericWeight
            self.queryWeight = queryWeight
            self.exampleWeight = exampleWeight
        }

        /// What the cached files depend on.
        var cacheKey: String {
            var key = FNV1a()
            key.add(queries.contentHash)
            for example in examples { key.add(example + "\n") }
            key.add("\(genericModelPath ?? "") \(genericWords) \(genericWeight) \(queryWeight) \(exampleWeight)")
            return key.hex
        }
    }

    /// Reads the description a previous `prepare` wrote beside its files.
    private static func readCached(metadataPath: String) -> SkillLanguageModel? {
        guard let data = FileManager.default.contents(atPath: metadataPath),
            var model = try? JSONDecoder().decode(SkillLanguageModel.self, from: data),
            FileManager.default.fileExists(atPath: model.languageModelPath),
            FileManager.default.fileExists(atPath: model.dictionaryPath)
        else { return nil }
        model.wasBuilt = false
        return model
    }

    /// Cache files are not secret, so they keep the usual 0644.
    private static func writeAtomically(_ text: String, to path: String) throws(ConfigError) {
        try AtomicFile.write(Data(text.utf8), to: path, mode: 0o644)
    }
}
