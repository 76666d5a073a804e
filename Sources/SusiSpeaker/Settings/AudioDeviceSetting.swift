import SusiAudio
import SusiCore

/// `susi devices`: the sound devices whose name or index `audio.input` and `audio.output` take.
public enum AudioDeviceSetting {
    /// One line per capture or playback device PortAudio sees: index, name, sound system,
    /// channels and rate, the defaults marked (`AudioDevice.description`).
    ///
    /// Starts and ends a PortAudio session, logging to `logger`.
    /// - Throws: `AudioError` when PortAudio cannot start, and `audio-no-device` when it sees
    ///   no device.
    public static func listing(logger: Logger) throws(AudioError) -> [String] {
        let session = try PortAudioSession(logger: logger)
        let devices = try session.devices()
        guard !devices.isEmpty else {
            throw AudioError(.noDevice, "no audio devices found (is a sound card or ALSA configured?)")
        }
        return devices.map(\.description)
    }
}
