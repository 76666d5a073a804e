import Foundation
import SusiAudio
import SusiCore
import SusiModel
import SusiSpeech

/// Whether a wake phrase can wake the speaker, and which engine wakes on it how well: a
/// trained head (`make wakeword PHRASE=...`), or the keyphrase search at a threshold
/// calibrated for the phrase (`WakeCalibrator`). The default phrase, "susi", has both, tuned
/// by hand.
///
/// Calibrations are kept beside the config file (`wake-calibration/<phrase>.json`).
public enum WakePhraseCheck {
    /// What stands behind a phrase.
    public enum Readiness: Sendable, Equatable {
        /// The default phrase: a trained head and a keyphrase threshold tuned by hand.
        case tuned
        /// A trained head at this path.
        case head(String)
        /// No head; the keyphrase search passed its check at the calibrated threshold.
        case calibrated(WakeCalibration)
        /// No head; the keyphrase search failed its check.
        case failed(WakeCalibration)
        /// No head and no calibration yet.
        case unchecked
    }

    /// `phrase` as the wake word search, the heads and the calibrations spell it: lower case,
    /// its words separated by single spaces (`Keyphrase`).
    public static func normalized(_ phrase: String) -> String {
        Keyphrase(phrase).phrase
    }

    /// Where calibrations for the config in `store` are kept: the config's directory.
    public static func directory(store: ConfigStore) -> String { store.directory }

    /// What stands behind `phrase` with the models in `models` and the calibrations in `directory`.
    public static func readiness(of phrase: String, models: String, directory: String) -> Readiness {
        let phrase = Keyphrase(phrase).phrase
        if phrase == Keyphrase(Config().hotword.phrase).phrase { return .tuned }
        let head = NeuralWakeWordDetector.files(modelsDirectory: models, phrase: phrase).head
        if FileManager.default.fileExists(atPath: head) { return .head(head) }
        guard let calibration = WakeCalibration.load(phrase: phrase, directory: directory) else { return .unchecked }
        return calibration.passed ? .calibrated(calibration) : .failed(calibration)
    }

    /// Calibrates `phrase` for `config`'s keyphrase detector and keeps the result in `directory`.
    ///
    /// Blocks for a few seconds. - Throws: what `WakeCalibrator.calibrate` throws, and
    /// `config-unwritable` when the result cannot be kept.
    public static func calibrate(
        _ phrase: String, config: Config, models: String, directory: String, logger: Logger = .silent
    ) throws -> WakeCalibration {
        let calibration = try WakeCalibrator(resampler: SpeexResampler.make).calibrate(
            phrase, config: config, modelsDirectory: models, logger: logger)
        try calibration.save(directory: directory)
        return calibration
    }

    /// The check `ConfigStore.wakePhraseCheck` runs on a new `hotword.phrase`: nil when the
    /// phrase can wake the speaker, else what is wrong and what to do. A phrase with neither a
    /// head nor a calibration is calibrated first (a few seconds), as a person choosing a wake
    /// word expects it to work or be told why not.
    public static func check(store: ConfigStore, environment: [String: String], logger: Logger) -> @Sendable (String) -> String? {
        let directory = directory(store: store)
        return { phrase in
            // Without the models nothing wakes at all; that is `susi doctor`'s to report.
            guard let models = try? Assembly.modelsDirectory(environment: environment) else { return nil }
            switch readiness(of: phrase, models: models, directory: directory) {
            case .tuned, .head, .calibrated: return nil
            case .failed(let calibration): return refusal(phrase, calibration: calibration, models: models)
            case .unchecked:
                logger.info("no trained head for \"\(phrase)\": calibrating the keyphrase search (a few seconds)")
                do {
                    let config = (try? store.load()) ?? Config()
                    let calibration = try calibrate(phrase, config: config, models: models, directory: directory, logger: logger)
                    logger.info("wake word \"\(calibration.phrase)\": \(calibration.summary)")
                    return calibration.passed ? nil : refusal(phrase, calibration: calibration, models: models)
                } catch let error as SpeechError where error.kind == .wakeUnknownWord {
                    return "hotword.phrase '\(phrase)' cannot be heard: \(error.message). Add its pronunciation to "
                        + "\(models)/hotword/\(WakeCalibration.fileStem(of: phrase)).dict (CMU format: word P H O N E S) "
                        + "and set it again, or train a head for it with `make wakeword PHRASE=\"\(phrase)\"`"
                } catch {
                    return "hotword.phrase '\(phrase)' has no trained head and its keyphrase check could not run: \(error)"
                }
            }
        }
    }

    /// The refusal of a phrase whose check failed, saying what to do.
    static func refusal(_ phrase: String, calibration: WakeCalibration, models: String) -> String {
        "hotword.phrase '\(phrase)' would not wake the speaker reliably: there is no trained head "
            + "(\(WakeCalibration.fileStem(of: phrase)).head.json) and the PocketSphinx check failed "
            + "(best threshold \(WakeCalibration.format(calibration.threshold)): woke \(calibration.wakes)/\(calibration.trials) "
            + "of its spoken phrases, \(calibration.falseWakes) false wakes in \(Int(calibration.negativeSeconds.rounded())) s). "
            + "Train a head with `make wakeword PHRASE=\"\(phrase)\"`, or choose a longer, clearer phrase; "
            + "`susi wakeword calibrate \(phrase)` checks it again"
    }

    /// One line on the engine that wakes on `config`'s phrase and how well it did in its own
    /// check, for `susi doctor` and the settings page: `neural "susi" (head PATH; trained, dev
    /// figures from its report: ...)` or `pocketsphinx keyphrase "computer", threshold 1e-32
    /// calibrated, woke 6/6 of its check, 0 false wakes in 30 s`. `neuralUsable` says whether
    /// the neural detector could be made (its front end and head load). `warning` is true for
    /// a keyphrase search neither tuned nor calibrated for the phrase, or whose check failed.
    public static func describe(_ config: Config, models: String, directory: String, neuralUsable: Bool) -> (
        text: String, warning: Bool
    ) {
        let phrase = Keyphrase(config.hotword.phrase).phrase
        let head = NeuralWakeWordDetector.files(modelsDirectory: models, phrase: phrase).head
        if config.hotword.engine == "neural", neuralUsable {
            return ("neural \"\(phrase)\" (head \(head); \(headFigures(head)))", false)
        }
        let prefix = "pocketsphinx keyphrase \"\(phrase)\", "
        let threshold = WakeCalibration.format(config.hotword.threshold)
        let byHand = config.hotword.threshold != Config().hotword.threshold
        switch readiness(of: phrase, models: models, directory: directory) {
        case .tuned:
            return (prefix + "threshold \(threshold) " + (byHand ? "set by hand" : "tuned for it on the dev corpus"), false)
        case .calibrated(let calibration), .failed(let calibration):
            if byHand {
                return (
                    prefix + "threshold \(threshold) set by hand (calibrated \(WakeCalibration.format(calibration.threshold)): "
                        + "woke \(calibration.wakes)/\(calibration.trials) of its check)", false
                )
            }
            return (prefix + calibration.summary, !calibration.passed)
        case .head:
            return (
                prefix + "threshold \(threshold), not calibrated for it (its head \((head as NSString).lastPathComponent) "
                    + "needs the neural engine; `susi wakeword calibrate \(phrase)`)", !byHand
            )
        case .unchecked:
            return (
                prefix + "threshold \(threshold), not calibrated for it: it may never wake "
                    + "(`susi wakeword calibrate \(phrase)`, or `make wakeword PHRASE=\"\(phrase)\"`)", !byHand
            )
        }
    }

    /// The settings page's line (`SpeakerDashboard.wakeEngine`): `describe`, taking the
    /// neural engine as usable when its front end and the phrase's head are present (the
    /// page asks every few seconds, so nothing is loaded).
    public static func pageLine(store: ConfigStore, environment: [String: String]) -> @Sendable (Config) -> String {
        let directory = directory(store: store)
        return { config in
            guard let models = try? Assembly.modelsDirectory(environment: environment) else { return "models not found" }
            let files = NeuralWakeWordDetector.files(modelsDirectory: models, phrase: config.hotword.phrase)
            let usable =
                FileManager.default.fileExists(atPath: files.frontEnd) && FileManager.default.fileExists(atPath: files.head)
            return describe(config, models: models, directory: directory, neuralUsable: usable).text
        }
    }

    /// "trained; dev figures from its report: ..." from the head file's `training.report`.
    static func headFigures(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let training = root["training"] as? [String: Any],
            let report = training["report"] as? [String: Any]
        else { return "trained, no report in the head" }
        var figures: [String] = []
        for (key, value) in report.sorted(by: { $0.key < $1.key }) where key.hasPrefix("found") && key.hasSuffix("/clean") {
            // "found at the threshold/flite-kal/clean" or "found/flite-kal/clean"
            let parts = key.split(separator: "/")
            guard parts.count == 3, parts[0] == "found" || parts[0] == "found at the threshold" else { continue }
            figures.append("\(parts[1]) clean \(value)")
        }
        let falseWakes = report.sorted(by: { $0.key < $1.key }).filter { $0.key.hasPrefix("false wakes per hour at") }
        if let (key, value) = falseWakes.first(where: { $0.key.contains("at the threshold") }) ?? falseWakes.first {
            figures.append("\(value) \(key)")
        }
        return "trained, dev figures from its report: " + (figures.isEmpty ? "none" : figures.joined(separator: ", "))
    }
}
