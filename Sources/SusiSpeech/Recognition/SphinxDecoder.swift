import CPocketSphinx
import Foundation
import SusiCore

/// Owns one PocketSphinx decoder and its configuration; the only Swift file that calls
/// PocketSphinx.
///
/// Not thread-safe: use an instance from one thread (or one actor) at a time, and keep
/// blocking `process` calls off the cooperative pool. Both C handles are freed in `deinit`.
/// Audio must be 16-bit mono at `configuration.sampleRate`.
public final class SphinxDecoder {
    /// One word of a hypothesis as PocketSphinx segments it; fillers and silences included.
    public struct Segment: Sendable, Equatable {
        /// The dictionary word, possibly with an alternate-pronunciation suffix (`read(2)`).
        public var word: String
        /// First frame of the word, counted from the start of the utterance.
        public var startFrame: Int
        /// Last frame of the word (inclusive).
        public var endFrame: Int
        /// Posterior probability of the word, 0...1 (meaningful for n-gram searches).
        public var confidence: Double
        /// The acoustic model's log-likelihood of the word's frames (PocketSphinx's log base
        /// 1.0001, so negative; language model not included).
        public var acousticScore: Int = 0
    }

    /// A search created with the decoder beside its main one, with search options of its own
    /// (`-lw`, `-fwdflat`, beams, ...): one acoustic model for both, where a second decoder
    /// would load a second copy (about 8 MB). `withSearch` decodes with it.
    public struct SideSearch: Sendable, Equatable {
        /// The name `withSearch` selects it by.
        public var name: String
        /// What it listens for.
        public var search: SphinxConfiguration.Search
        /// PocketSphinx options of this search (keys with the dash), over PocketSphinx's
        /// defaults: the main search's own options do not apply to it. Only numeric and yes/no
        /// options that a search reads when it is created; acoustic ones (`-topn`, `-dither`,
        /// ...) belong to the whole decoder, and the side search hears with the main one's.
        public var options: [String: String]

        /// A side search named `name`.
        public init(name: String, search: SphinxConfiguration.Search, options: [String: String] = [:]) {
            self.name = name
            self.search = search
            self.options = options
        }
    }

    /// The configuration the decoder was created from.
    public let configuration: SphinxConfiguration
    private let decoder: OpaquePointer
    private let commandLine: OpaquePointer
    /// The C strings of every option given to `commandLine`: sphinxbase keeps the pointers as
    /// its hash keys (it does not copy them), so they live as long as the decoder.
    private var optionStrings: [UnsafeMutablePointer<CChar>?] = []
    /// Name of the active search; searches are replaced, never accumulated.
    private var searchName: String?
    private var searchCounter = 0
    /// The side searches created with the decoder, by name.
    public private(set) var sideSearchNames: Set<String> = []
    /// The front end as the model was loaded, before any audio: where a side search's own
    /// front-end state starts (`withSearch`).
    public private(set) var initialFrontEndState = FrontEndState(mean: [], sum: [], frames: 0)
    /// Whether an utterance is open (between `startUtterance` and `endUtterance`).
    public private(set) var isInUtterance = false

    /// Loads the model, adds the words of `dictionaries`, creates `sideSearches`, then starts
    /// the configured search (so that keyphrases may use the added words).
    ///
    /// Words are added before any search exists because PocketSphinx adds a word added later
    /// to every n-gram search's model as well. Side searches come before the main one because
    /// the last n-gram search created decides whether the acoustic model keeps a whole
    /// utterance's features (the main search's second pass needs them).
    ///
    /// - Throws: `stt-model-missing` naming the first missing file, `stt-init-failed` when
    ///   PocketSphinx rejects an option, the model or the search, `stt-bad-pronunciation`
    ///   for a dictionary entry it rejects, `stt-unknown-word` for a keyphrase word it lacks.
    public init(
        configuration: SphinxConfiguration, dictionaries: [PronunciationDictionary] = [], sideSearches: [SideSearch] = []
    ) throws(SpeechError) {
        for (path, role) in configuration.requiredFiles where !FileManager.default.fileExists(atPath: path) {
            throw SpeechError(.modelMissing, "\(role) not found: \(path)")
        }
        if configuration.logFile == nil {
            // PocketSphinx logs its whole configuration and every utterance to stderr.
            err_set_logfp(nil)
        }
        let arguments = configuration.arguments
        var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        let parsed = cStrings.withUnsafeMutableBufferPointer { buffer in
            susi_ps_config_from_argv(Int32(buffer.count), buffer.baseAddress)
        }
        guard let parsed else {
            cStrings.forEach { free($0) }
            throw SpeechError(.initFailed, "PocketSphinx rejected the options \(arguments.joined(separator: " "))")
        }
        guard let created = ps_init(parsed) else {
            cmd_ln_free_r(parsed)
            cStrings.forEach { free($0) }
            throw SpeechError(.initFailed, "PocketSphinx could not load the model in \(configuration.acousticModelPath)")
        }
        self.configuration = configuration
        commandLine = parsed
        decoder = created
        optionStrings = cStrings
        initialFrontEndState = frontEndState
        for entry in dictionaries.flatMap(\.entries) {
            try addPronunciation(entry.phones, for: entry.word)
        }
        for side in sideSearches {
            guard !side.name.isEmpty, !sideSearchNames.contains(side.name), !side.name.hasPrefix("search-") else {
                throw SpeechError(.initFailed, "side search name \"\(side.name)\" is empty, taken or reserved")
            }
            // A side search's options count from PocketSphinx's defaults, not from the main
            // search's (the recogniser's `-lw` 4 is not the verifier's).
            var options: [String: String] = [:]
            for key in configuration.extraOptions.keys where !Self.decoderWideOptions.contains(key) {
                if let fallback = Self.optionDefinition(key)?.defaultValue { options[key] = fallback }
            }
            options.merge(side.options) { _, own in own }
            try withOptions(options) { () throws(SpeechError) in _ = try addSearch(side.search, named: side.name) }
            sideSearchNames.insert(side.name)
        }
        try setSearch(configuration.search)
        // Loading read the mapped acoustic model whole; decoding touches a fifth of it.
        MappedPages.release(under: configuration.acousticModelPath)
    }

    deinit {
        ps_free(decoder)
        cmd_ln_free_r(commandLine)
        optionStrings.forEach { free($0) }
    }

    /// Runs `body` with the decoder's options changed as `options` says, then puts back the
    /// decoder's own (from `configuration`, else PocketSphinx's defaults).
    private func withOptions(_ options: [String: String], _ body: () throws(SpeechError) -> Void) throws(SpeechError) {
        guard !options.isEmpty else { return try body() }
        let own = Dictionary(Self.pairs(configuration.arguments)) { first, _ in first }
        var restore: [String: String] = [:]
        for key in options.keys.sorted() {
            guard let definition = Self.optionDefinition(key), let fallback = definition.defaultValue,
                definition.type & (ARG_INTEGER | ARG_FLOATING | ARG_BOOLEAN) != 0
            else {
                throw SpeechError(.initFailed, "\(key) cannot be set for one search")
            }
            guard !Self.decoderWideOptions.contains(key) else {
                throw SpeechError(.initFailed, "\(key) is the whole decoder's, not one search's")
            }
            restore[key] = own[key] ?? fallback
        }
        try update(options)
        defer { try? update(restore) }
        try body()
    }

    /// Options the acoustic model, front end or decoder as a whole reads: one value for all
    /// of its searches.
    static let decoderWideOptions: Set<String> = [
        "-topn", "-topn_beam", "-dither", "-seed", "-samprate", "-nfft", "-frate", "-wlen", "-nfilt", "-lowerf", "-upperf",
        "-remove_noise", "-remove_silence", "-vad_threshold", "-vad_prespeech", "-vad_postspeech", "-vad_startspeech",
        "-pl_window", "-pl_beam", "-pl_pbeam", "-pl_pip", "-pl_weight", "-ds", "-compallsen", "-cmninit", "-varnorm",
        "-lifter", "-ncep", "-alpha", "-transform", "-ceplen", "-input_endian", "-logbase", "-mmap",
    ]

    /// The definition of `name` in PocketSphinx's option table: its type bits and default.
    private static func optionDefinition(_ name: String) -> (type: Int32, defaultValue: String?)? {
        guard var entry = ps_args() else { return nil }
        while let entryName = entry.pointee.name {
            if String(cString: entryName) == name {
                return (entry.pointee.type, entry.pointee.deflt.map { String(cString: $0) })
            }
            entry += 1
        }
        return nil
    }

    /// Writes `options` into the decoder's command line, as PocketSphinx parses them.
    private func update(_ options: [String: String]) throws(SpeechError) {
        let arguments = options.keys.sorted().flatMap { [$0, options[$0] ?? ""] }
        var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        optionStrings += cStrings
        let parsed = cStrings.withUnsafeMutableBufferPointer { buffer in
            susi_ps_config_update(commandLine, Int32(buffer.count), buffer.baseAddress)
        }
        guard parsed != nil else {
            throw SpeechError(.initFailed, "PocketSphinx rejected the options \(arguments.joined(separator: " "))")
        }
    }

    private static func pairs(_ arguments: [String]) -> [(String, String)] {
        stride(from: 0, to: arguments.count - 1, by: 2).map { (arguments[$0], arguments[$0 + 1]) }
    }

    // MARK: Searches

    /// Replaces the active search. Words it needs must already be in the dictionary.
    ///
    /// - Throws: `stt-init-failed` during an utterance or when PocketSphinx rejects the
    ///   language model, grammar or keyphrases; `stt-model-missing` for a missing file.
    public func setSearch(_ search: SphinxConfiguration.Search) throws(SpeechError) {
        let name = try addSearch(search)
        guard ps_set_search(decoder, name) == 0 else {
            throw SpeechError(.initFailed, "PocketSphinx rejected the search \(describe(search))")
        }
        if let old = searchName { ps_unset_search(decoder, old) }
        searchName = name
    }

    /// Adds a search beside the active one without activating it; `activate` switches to it
    /// (and back to the main one with `activate(nil)`). Returns its name.
    ///
    /// - Throws: as `setSearch`.
    public func addSearch(_ search: SphinxConfiguration.Search) throws(SpeechError) -> String {
        searchCounter += 1
        return try addSearch(search, named: "search-\(searchCounter)")
    }

    private func addSearch(_ search: SphinxConfiguration.Search, named name: String) throws(SpeechError) -> String {
        guard !isInUtterance else {
            throw SpeechError(.initFailed, "cannot change the search during an utterance")
        }
        let status: Int32
        switch search {
        case .languageModel(let path):
            try requireFile(path, role: "language model")
            status = ps_set_lm_file(decoder, name, path)
        case .grammarFile(let path):
            try requireFile(path, role: "JSGF grammar")
            status = ps_set_jsgf_file(decoder, name, path)
        case .grammar(let text):
            status = ps_set_jsgf_string(decoder, name, text)
        case .keyphrases(let phrases):
            status = try setKeyphrases(phrases, name: name)
        }
        guard status == 0 else {
            throw SpeechError(.initFailed, "PocketSphinx rejected the search \(describe(search))")
        }
        return name
    }

    /// Makes the search `name` (from `addSearch`) the active one, or the main one (from
    /// `setSearch`) for nil. Not during an utterance.
    ///
    /// - Throws: `stt-init-failed` during an utterance or for an unknown name.
    public func activate(_ name: String?) throws(SpeechError) {
        guard !isInUtterance else {
            throw SpeechError(.initFailed, "cannot change the search during an utterance")
        }
        guard let target = name ?? searchName, ps_set_search(decoder, target) == 0 else {
            throw SpeechError(.initFailed, "no search \(name ?? "main") to switch to")
        }
    }

    /// Decodes with the side search `name` (`SideSearch`): ends an utterance still open (its
    /// result is lost), puts the front end in `frontEnd` (nil: as the model was loaded), runs
    /// `body`, keeps the front end `body` left in `frontEnd`, and puts back the main search and
    /// the front end it had. Hypotheses and lattices are the side search's only inside `body`.
    ///
    /// So two users share one acoustic model and each keeps its own cepstral-mean estimate;
    /// the front end's noise tracking is the decoder's, shared by both.
    ///
    /// - Throws: `stt-init-failed` for an unknown name; what `body` or ending the open
    ///   utterance throws. The main search and front end are back in place either way.
    public func withSearch<Result>(
        _ name: String, frontEnd: inout FrontEndState?, _ body: (SphinxDecoder) throws(SpeechError) -> Result
    ) throws(SpeechError) -> Result {
        guard sideSearchNames.contains(name) else {
            throw SpeechError(.initFailed, "no side search \(name)")
        }
        if isInUtterance { try endUtterance() }
        let main = frontEndState
        restore(frontEnd ?? initialFrontEndState)
        defer {
            if isInUtterance { try? endUtterance() }
            frontEnd = frontEndState
            restore(main)
            if let searchName { ps_set_search(decoder, searchName) }
        }
        guard ps_set_search(decoder, name) == 0 else {
            throw SpeechError(.initFailed, "PocketSphinx has no search \(name)")
        }
        return try body(self)
    }

    /// The unigram log10 probability of every word of a language model file, sentence
    /// markers included (`GenericUnigrams` reads PocketSphinx's own binary models faster).
    ///
    /// sphinxbase 5prealpha can neither iterate nor write its binary models: word ids count up
    /// to the number of unigrams, and the model is asked for each.
    ///
    /// - Throws: `stt-model-missing`, or `stt-init-failed` when it cannot be read.
    public static func unigrams(ofLanguageModel path: String) throws(SpeechError) -> [String: Double] {
        try withModel(path) { model in
            let toLog10 = log10(1.0001)
            var unigrams: [String: Double] = [:]
            guard let counts = ngram_model_get_counts(model) else { return [:] }
            for wid in 0..<Int32(counts[0]) {
                guard let text = ngram_word(model, wid) else { continue }
                var used: Int32 = 0
                unigrams[String(cString: text)] = Double(ngram_ng_prob(model, wid, nil, 0, &used)) * toLog10
            }
            return unigrams
        }
    }

    /// Runs `body` on the model in `path`, read whole (tens of MB for a large one) and freed after.
    private static func withModel<T>(_ path: String, _ body: (OpaquePointer) -> T) throws(SpeechError) -> T {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SpeechError(.modelMissing, "language model not found: \(path)")
        }
        // sphinxbase logs every model it reads to stderr.
        err_set_logfp(nil)
        guard let logMath = logmath_init(1.0001, 0, 0) else {
            throw SpeechError(.initFailed, "cannot set up sphinxbase's log tables")
        }
        defer { logmath_free(logMath) }
        guard let model = ngram_model_read(nil, path, NGRAM_AUTO, logMath) else {
            throw SpeechError(.initFailed, "PocketSphinx could not read the language model \(path)")
        }
        defer { ngram_model_free(model) }
        return body(model)
    }

    /// PocketSphinx reads keyphrases with per-phrase thresholds only from a file, and spots
    /// only the first pronunciation of each word: every combination of the alternates to
    /// spot (`susi`, `susi(2)`) becomes a line of its own.
    private func setKeyphrases(_ phrases: [Keyphrase], name: String) throws(SpeechError) -> Int32 {
        guard !phrases.isEmpty else { throw SpeechError(.initFailed, "no keyphrase given") }
        for phrase in phrases where !(phrase.threshold > 0) || phrase.words.isEmpty {
            throw SpeechError(.initFailed, "keyphrase \"\(phrase.phrase)\" needs words and a positive threshold")
        }
        for phrase in phrases {
            for (word, phonesList) in phrase.pronunciations {
                for phones in phonesList { try addPronunciation(phones, for: word) }
            }
        }
        let missing = missingWords(phrases.flatMap(\.words))
        guard missing.isEmpty else {
            throw SpeechError(.unknownWord, "not in the dictionary: \(missing.joined(separator: ", "))")
        }
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("susi-kws-\(UUID().uuidString).txt")
        let text = phrases.flatMap { phrase in
            pronunciationVariants(of: phrase).map { "\($0) /\(phrase.threshold)/\n" }
        }.joined()
        do {
            try text.write(to: file, atomically: false, encoding: .utf8)
        } catch {
            throw SpeechError(.initFailed, "cannot write keyphrase file \(file.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        return ps_set_kws(decoder, name, file.path)
    }

    /// Every spelling of the phrase with the alternate names of its words, limited to the
    /// phrase's chosen pronunciations, at most 16 so a long phrase stays a small search.
    private func pronunciationVariants(of phrase: Keyphrase) -> [String] {
        var variants = [""]
        for word in phrase.words {
            let allowed = phrase.pronunciations[word].map { Set($0.map(PronunciationDictionary.normalizePhones)) }
            var names = pronunciations(of: word).enumerated()
                .filter { allowed?.contains($0.element) ?? true }
                .map { $0.offset == 0 ? word : "\(word)(\($0.offset + 1))" }
            if names.isEmpty { names = [word] }
            variants = variants.flatMap { prefix in names.map { prefix.isEmpty ? $0 : prefix + " " + $0 } }
            if variants.count > 16 { variants = Array(variants.prefix(16)) }
        }
        return variants
    }

    private func requireFile(_ path: String, role: String) throws(SpeechError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SpeechError(.modelMissing, "\(role) not found: \(path)")
        }
    }

    private func describe(_ search: SphinxConfiguration.Search) -> String {
        switch search {
        case .languageModel(let path): return "language model \(path)"
        case .grammarFile(let path): return "grammar \(path)"
        case .grammar: return "inline grammar"
        case .keyphrases(let phrases): return "keyphrases " + phrases.map { "\"\($0.phrase)\"" }.joined(separator: ", ")
        }
    }

    // MARK: Dictionary

    /// Every pronunciation of `word` (the base entry, then `word(2)`, `word(3)`, ...), as
    /// space-separated phones; empty when the word is unknown.
    public func pronunciations(of word: String) -> [String] {
        var found: [String] = []
        for index in 1...32 {
            let name = index == 1 ? word : "\(word)(\(index))"
            guard let phones = ps_lookup_word(decoder, name) else { break }
            found.append(String(cString: phones))
            // ps_lookup_word hands over a calloc'd copy.
            free(phones)
        }
        return found
    }

    /// How many neighbouring pairs of `words`, with the sentence's start before them and its
    /// end after them, the main search's language model never saw together (it backs off to
    /// the second word's unigram, or lacks a word); nil when the main search has no language
    /// model. "what is the weather" read by a model of commands counts the pair "the
    /// weather" if no command has it.
    public func unseenWordPairs(in words: [String]) -> Int? {
        guard let searchName, let model = ps_get_lm(decoder, searchName) else { return nil }
        let unknown = ngram_unknown_wid(model)
        let ids = (["<s>"] + words + ["</s>"]).map { ngram_wid(model, $0) }
        var unseen = 0
        for (history, word) in zip(ids, ids.dropFirst()) {
            var used: Int32 = 0
            if history != unknown, word != unknown { _ = ngram_bg_score(model, word, history, &used) }
            if used < 2 { unseen += 1 }
        }
        return unseen
    }

    /// The words of `words` that have no pronunciation.
    public func missingWords(_ words: [String]) -> [String] {
        words.filter { pronunciations(of: $0).isEmpty }
    }

    /// Adds `phones` as a pronunciation of `word`: as the word itself when it is new, as its
    /// next alternate (`word(2)`, ...) otherwise. Returns false when the word already had it.
    ///
    /// Searches are rebuilt so they know the word. Not during an utterance.
    ///
    /// - Throws: `stt-bad-pronunciation` for an empty pronunciation or a phone the acoustic
    ///   model lacks, `stt-init-failed` during an utterance.
    @discardableResult
    public func addPronunciation(_ phones: String, for word: String) throws(SpeechError) -> Bool {
        guard !isInUtterance else {
            throw SpeechError(.initFailed, "cannot add words during an utterance")
        }
        let normalizedPhones = PronunciationDictionary.normalizePhones(phones)
        let normalizedWord = Self.baseWord(word.lowercased())
        guard !normalizedPhones.isEmpty, !normalizedWord.isEmpty,
            !normalizedWord.contains(where: \.isWhitespace)
        else {
            throw SpeechError(.badPronunciation, "cannot add \"\(word)\" with pronunciation \"\(phones)\"")
        }
        let existing = pronunciations(of: normalizedWord)
        if existing.contains(normalizedPhones) { return false }
        let name = existing.isEmpty ? normalizedWord : "\(normalizedWord)(\(existing.count + 1))"
        guard ps_add_word(decoder, name, normalizedPhones, 1) >= 0 else {
            throw SpeechError(
                .badPronunciation,
                "PocketSphinx rejected \"\(normalizedWord)\" as \"\(normalizedPhones)\" (unknown phone?)")
        }
        return true
    }

    /// `word` without an alternate-pronunciation suffix: `read(2)` becomes `read`.
    static func baseWord(_ word: String) -> String {
        guard word.hasSuffix(")"), let open = word.lastIndex(of: "("), open > word.startIndex else { return word }
        let digits = word[word.index(after: open)..<word.index(before: word.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber) else { return word }
        return String(word[..<open])
    }

    // MARK: Decoding

    /// Opens an utterance; frame numbers of segments count from here.
    ///
    /// - Throws: `stt-decode-failed` when PocketSphinx refuses.
    public func startUtterance() throws(SpeechError) {
        if isInUtterance { try endUtterance() }
        guard ps_start_utt(decoder) == 0 else {
            throw SpeechError(.decodeFailed, "PocketSphinx could not start an utterance")
        }
        isInUtterance = true
    }

    /// Decodes `samples` as one whole utterance; its hypothesis and segments are then readable.
    ///
    /// - Throws: as `startUtterance`, `process` and `endUtterance`.
    public func decodeUtterance(_ samples: [Int16]) throws(SpeechError) {
        try startUtterance()
        try process(samples)
        try endUtterance()
    }

    /// Opens an utterance again from the front end's state `start` (read when the closed
    /// utterance began; nil: as it is) and decodes `samples`, that utterance's audio so far,
    /// so that more audio continues it as if it had never been closed.
    ///
    /// - Throws: as `startUtterance` and `process`.
    public func reopenUtterance(from start: FrontEndState?, decoding samples: [Int16]) throws(SpeechError) {
        if let start { restore(start) }
        try startUtterance()
        try process(samples)
    }

    /// The front end's running cepstral-mean estimate, which each utterance's end updates.
    public struct FrontEndState: Equatable {
        fileprivate var mean: [mfcc_t]
        fileprivate var sum: [mfcc_t]
        fileprivate var frames: Int32
    }

    /// The front end's state now, to decode audio again as it was first decoded.
    public var frontEndState: FrontEndState {
        let length = Int(susi_ps_cmn_length(decoder))
        var state = FrontEndState(mean: Array(repeating: 0, count: length), sum: Array(repeating: 0, count: length), frames: 0)
        if length > 0 { susi_ps_cmn_get(decoder, &state.mean, &state.sum, &state.frames) }
        return state
    }

    /// Puts back a state read from `frontEndState`.
    public func restore(_ state: FrontEndState) {
        guard !state.mean.isEmpty, state.mean.count == Int(susi_ps_cmn_length(decoder)) else { return }
        susi_ps_cmn_set(decoder, state.mean, state.sum, state.frames)
    }

    /// Decodes `samples` (mono int16 at the configured rate) as they arrive.
    ///
    /// - Throws: `stt-decode-failed` outside an utterance or when PocketSphinx fails.
    public func process(_ samples: [Int16]) throws(SpeechError) {
        guard isInUtterance else {
            throw SpeechError(.decodeFailed, "audio given outside an utterance")
        }
        guard !samples.isEmpty else { return }
        let status = samples.withUnsafeBufferPointer { buffer in
            ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 0)
        }
        guard status >= 0 else {
            throw SpeechError(.decodeFailed, "PocketSphinx failed on \(samples.count) samples")
        }
    }

    /// Closes the utterance; the final hypothesis and segments stay readable until the next
    /// `startUtterance`.
    ///
    /// - Throws: `stt-decode-failed` when PocketSphinx fails to finish the search.
    public func endUtterance() throws(SpeechError) {
        guard isInUtterance else { return }
        isInUtterance = false
        guard ps_end_utt(decoder) >= 0 else {
            throw SpeechError(.decodeFailed, "PocketSphinx could not finish the utterance")
        }
    }

    /// The best hypothesis so far (during an utterance) or the final one (after it), as
    /// PocketSphinx spells it; nil when nothing was recognised.
    public var hypothesis: String? {
        guard let text = ps_get_hyp(decoder, nil) else { return nil }
        let value = String(cString: text)
        return value.isEmpty ? nil : value
    }

    /// Up to `limit` different hypotheses from the word lattice of the last utterance, best
    /// first, as PocketSphinx spells them (fillers included), with their path scores; empty
    /// when there is no lattice (keyphrase search, nothing decoded yet) and always empty
    /// during an utterance.
    ///
    /// PocketSphinx's N-best search on a lattice taken mid-utterance can crash the process
    /// (SIGSEGV in `ngram_tg_score`, seen with the skill language model), so it is only ever
    /// run on a finished utterance.
    public func alternatives(limit: Int) -> [(text: String, score: Int)] {
        guard limit > 0, !isInUtterance else { return [] }
        var result: [(text: String, score: Int)] = []
        var iterator = ps_nbest(decoder)
        while let nbest = iterator, result.count < limit {
            var score: Int32 = 0
            if let text = ps_nbest_hyp(nbest, &score) {
                let hypothesis = String(cString: text)
                if !result.contains(where: { $0.text == hypothesis }) { result.append((hypothesis, Int(score))) }
            }
            // ps_nbest_next frees the iterator when it returns NULL.
            iterator = ps_nbest_next(nbest)
        }
        if let iterator { ps_nbest_free(iterator) }
        return result
    }

    /// The texts of `readings` (from `alternatives`) that score at most `margin` below the
    /// best one, in their order.
    public static func texts(of readings: [(text: String, score: Int)], within margin: Int) -> [String] {
        let best = readings.map(\.score).max() ?? 0
        return readings.filter { best - $0.score <= margin }.map(\.text)
    }

    /// Whether the decoder's voice activity detector currently hears speech.
    public var isInSpeech: Bool { ps_get_in_speech(decoder) != 0 }

    /// Frames decoded in the current (or last) utterance.
    public var frameCount: Int { Int(ps_get_n_frames(decoder)) }

    /// The words of the current hypothesis with their frames and confidence.
    public var segments: [Segment] {
        let logMath = ps_get_logmath(decoder)
        var result: [Segment] = []
        var iterator = ps_seg_iter(decoder)
        while let segment = iterator {
            var start: Int32 = 0
            var end: Int32 = 0
            ps_seg_frames(segment, &start, &end)
            var acoustic: Int32 = 0
            var language: Int32 = 0
            var backoff: Int32 = 0
            let logProbability = ps_seg_prob(segment, &acoustic, &language, &backoff)
            let confidence = logMath.map { min(1, max(0, logmath_exp($0, logProbability))) } ?? 0
            let word = ps_seg_word(segment).map { String(cString: $0) } ?? ""
            result.append(
                Segment(
                    word: word, startFrame: Int(start), endFrame: Int(end), confidence: confidence,
                    acousticScore: Int(acoustic)))
            // ps_seg_next frees the iterator when it returns NULL.
            iterator = ps_seg_next(segment)
        }
        return result
    }
}
