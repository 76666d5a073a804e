import SusiCore
import SusiModel
import SusiSpeech

/// `susi wakeword calibrate` (and `susi config set hotword.phrase` for a phrase with neither a
/// trained head nor a calibration): one phrase's keyphrase calibration, as the command reports it.
public struct WakePhraseCalibration: Sendable, Equatable {
    /// Whether the keyphrase search passed its check at the calibrated threshold.
    public let passed: Bool
    /// `wake word "PHRASE": N phones, threshold from them T; ` and the calibration's summary.
    public let line: String

    /// Calibrates `phrase` (`WakePhraseCheck.calibrate`) for the config of `store` (the
    /// defaults when it cannot be read) with the models in `models`, and keeps the result
    /// beside the config. Blocks for a few seconds.
    /// - Throws: what `WakePhraseCheck.calibrate` throws.
    public static func calibrate(_ phrase: String, store: ConfigStore, models: String, logger: Logger) throws
        -> WakePhraseCalibration
    {
        let calibration = try WakePhraseCheck.calibrate(
            phrase, config: (try? store.load()) ?? Config(), models: models, directory: WakePhraseCheck.directory(store: store),
            logger: logger)
        return WakePhraseCalibration(
            passed: calibration.passed,
            line: "wake word \"\(calibration.phrase)\": \(calibration.phones) phones, threshold from them "
                + "\(WakeCalibration.format(calibration.scaledThreshold)); \(calibration.summary)")
    }
}
