/// A failure of the audio stage: files, formats, conversion and devices.
///
/// `code` is stable (see `AudioError.Kind`); `message` names the file, device or format
/// involved so a person can act on it.
public typealias AudioError = StageError<AudioErrorKind>

/// The machine-readable reason; its raw value is the stable `code`.
public enum AudioErrorKind: String, StageErrorKind, CaseIterable {
    /// The file is not a RIFF/WAVE file, or its structure is malformed.
    case notWAV = "audio-not-wav"
    /// A valid WAV file whose encoding (ADPCM, 12-bit, ...) is not decoded here.
    case unsupportedFormat = "audio-unsupported-format"
    /// The file ends before a chunk it declares.
    case truncated = "audio-truncated"
    /// The file is missing, a directory, or cannot be read.
    case unreadable = "audio-unreadable"
    /// The file cannot be created, written or moved into place.
    case unwritable = "audio-unwritable"
    /// A format with a non-positive rate or channel count, or samples not a whole number of frames.
    case invalidFormat = "audio-invalid-format"
    /// A chunk whose format differs from the one a stream was opened with.
    case formatMismatch = "audio-format-mismatch"
    /// No audio device matches what was asked for.
    case noDevice = "audio-no-device"
    /// The audio device or its driver reported a failure.
    case deviceFailed = "audio-device-failed"

    public var stage: Stage { .audio }
}

extension AudioFormat {
    /// Throws `audio-invalid-format` unless the rate and channel count are positive.
    ///
    /// Formats come from files and devices, so a zero here is outside input, not a bug.
    public func validate() throws(AudioError) {
        guard sampleRate > 0, channels > 0 else {
            throw AudioError(.invalidFormat, "invalid audio format \(sampleRate) Hz, \(channels) channels")
        }
    }
}

extension AudioChunk {
    /// Throws `audio-invalid-format` unless the format is valid and the samples are whole frames.
    public func validate() throws(AudioError) {
        try format.validate()
        guard samples.count % format.channels == 0 else {
            throw AudioError(
                .invalidFormat,
                "\(samples.count) samples are not a whole number of \(format.channels)-channel frames")
        }
    }
}
