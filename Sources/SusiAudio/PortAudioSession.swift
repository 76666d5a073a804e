import CPortAudio
import Foundation
import SusiCore
import Synchronization

/// A claim on the PortAudio library: the first live session initialises it, the last one to
/// go away terminates it.
///
/// Create one per component that needs audio; captures and playbacks keep theirs alive.
/// PortAudio's own calls are not thread-safe, so every call that opens, starts, stops or closes a
/// stream, or reads the device list, runs under one process-wide lock (`withLibrary`); reading
/// and writing an open stream is left to the stream's owner thread.
///
/// Environment such as `ALSA_CONFIG_PATH` is read when the library is initialised, so set it
/// before the first session is created.
public final class PortAudioSession: Sendable {
    /// How many sessions are alive; guarded together with every control call into PortAudio.
    private static let library = Mutex<Int>(0)

    private let logger: Logger

    /// Initialises PortAudio if no other session has.
    ///
    /// - Parameters:
    ///   - quietBackends: drop the warnings ALSA and JACK print on standard error while probing
    ///     devices (missing cards, no JACK server). Failures still arrive as `AudioError`s.
    /// - Throws: `audio-device-failed` when PortAudio cannot start.
    public init(quietBackends: Bool = true, logger: Logger = .silent) throws(AudioError) {
        self.logger = logger
        let result: PaError = Self.library.withLock { count in
            if count == 0 {
                if quietBackends { _ = susi_pa_silence_backend_logs() }
                let code = Pa_Initialize()
                guard code == paNoError.rawValue else { return code }
            }
            count += 1
            return paNoError.rawValue
        }
        if result != paNoError.rawValue {
            throw Self.error(result, "cannot initialise PortAudio")
        }
        logger.debug("PortAudio session opened: \(String(cString: Pa_GetVersionText()))")
    }

    deinit {
        Self.library.withLock { count in
            count -= 1
            if count == 0 { _ = Pa_Terminate() }
        }
    }

    /// Runs `body` holding the process-wide PortAudio lock.
    func withLibrary<T>(_ body: () throws(AudioError) -> T) throws(AudioError) -> T {
        let result: Result<T, AudioError> = Self.library.withLock { _ in
            do throws(AudioError) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Every device PortAudio knows, capture and playback.
    ///
    /// - Throws: `audio-device-failed` when PortAudio cannot list devices.
    public func devices() throws(AudioError) -> [AudioDevice] {
        try withLibrary { () throws(AudioError) -> [AudioDevice] in
            let count = Pa_GetDeviceCount()
            guard count >= 0 else { throw Self.error(count, "cannot list audio devices") }
            let defaultInput = Pa_GetDefaultInputDevice()
            let defaultOutput = Pa_GetDefaultOutputDevice()
            var devices: [AudioDevice] = []
            for index in 0..<count {
                guard let info = Pa_GetDeviceInfo(index) else { continue }
                let hostAPI = Pa_GetHostApiInfo(info.pointee.hostApi).map { String(cString: $0.pointee.name) } ?? "unknown"
                devices.append(
                    AudioDevice(
                        index: Int(index),
                        name: info.pointee.name.map { String(cString: $0) } ?? "device \(index)",
                        hostAPI: hostAPI,
                        maxInputChannels: Int(info.pointee.maxInputChannels),
                        maxOutputChannels: Int(info.pointee.maxOutputChannels),
                        defaultSampleRate: Int(info.pointee.defaultSampleRate.rounded()),
                        isDefaultInput: index == defaultInput,
                        isDefaultOutput: index == defaultOutput))
            }
            return devices
        }
    }

    /// The device `specifier` names for `direction`: `default`, an index, or an exact or partial name.
    ///
    /// - Throws: `audio-no-device` naming what was asked for and what exists.
    public func device(_ specifier: String, for direction: AudioDirection) throws(AudioError) -> AudioDevice {
        try AudioDevice.select(specifier, from: devices(), direction: direction)
    }

    /// PortAudio's stream callback, as a C function pointer.
    typealias StreamCallback =
        @convention(c) (
            UnsafeRawPointer?, UnsafeMutableRawPointer?, UInt, UnsafePointer<PaStreamCallbackTimeInfo>?, PaStreamCallbackFlags,
            UnsafeMutableRawPointer?
        ) -> Int32

    /// Opens an int16 stream on `device` in `direction` at `format`: a callback stream when
    /// `callback` is given (capture), else a blocking one (playback).
    ///
    /// - Throws: `audio-no-device` or `audio-device-failed` with PortAudio's reason.
    func openStream(
        device: AudioDevice, direction: AudioDirection, format: AudioFormat, callback: StreamCallback? = nil,
        userData: UnsafeMutableRawPointer? = nil
    ) throws(AudioError) -> UnsafeMutableRawPointer? {
        let latency = suggestedLatency(device: device, direction: direction)
        return try withLibrary { () throws(AudioError) -> UnsafeMutableRawPointer? in
            var parameters = PaStreamParameters(
                device: PaDeviceIndex(device.index), channelCount: Int32(format.channels),
                sampleFormat: susi_pa_int16(), suggestedLatency: latency, hostApiSpecificStreamInfo: nil)
            var opened: UnsafeMutableRawPointer?
            let code = withUnsafePointer(to: &parameters) { pointer in
                Pa_OpenStream(
                    &opened, direction == .input ? pointer : nil, direction == .output ? pointer : nil,
                    Double(format.sampleRate), UInt(paFramesPerBufferUnspecified), susi_pa_no_flag(), callback, userData)
            }
            guard code == paNoError.rawValue else {
                let purpose = direction == .input ? "recording" : "playback"
                throw Self.error(code, "cannot open '\(device.name)' for \(purpose) at \(format)")
            }
            return opened
        }
    }

    /// The suggested latency PortAudio reports for `device`, in seconds; the high figure, since
    /// a speaker values never dropping audio over shaving milliseconds.
    func suggestedLatency(device: AudioDevice, direction: AudioDirection) -> Double {
        guard let info = Pa_GetDeviceInfo(PaDeviceIndex(device.index)) else { return 0.1 }
        return direction == .input ? info.pointee.defaultHighInputLatency : info.pointee.defaultHighOutputLatency
    }

    /// Turns a PortAudio error code into an `AudioError` on the spot.
    static func error(_ code: PaError, _ what: String) -> AudioError {
        var text = Pa_GetErrorText(code).map { String(cString: $0) } ?? "PortAudio error \(code)"
        if code == paUnanticipatedHostError.rawValue, let host = Pa_GetLastHostErrorInfo(), let hostText = host.pointee.errorText
        {
            text += " (\(String(cString: hostText)))"
        }
        let kind: AudioError.Kind =
            code == paInvalidDevice.rawValue || code == paDeviceUnavailable.rawValue ? .noDevice : .deviceFailed
        return AudioError(kind, "\(what): \(text)")
    }
}
