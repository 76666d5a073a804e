import Foundation

/// Reads and writes RIFF/WAVE files as `AudioChunk`s.
///
/// Reading accepts integer PCM of 8, 16, 24 and 32 bits, IEEE float of 32 and 64 bits, plain or
/// `WAVE_FORMAT_EXTENSIBLE`, any channel count, rates of 8 to 192 kHz, and skips chunks it does not need
/// (`LIST`, `fact`, `cue `, ...). Samples are converted to int16: wider integers keep their top
/// 16 bits, floats are scaled by 32768 and clamped. Writing always produces 16-bit PCM.
/// Every failure is an `AudioError`; no input, however malformed, traps.
public enum WAVFile {
    /// The encoding found in a file's `fmt ` chunk, before conversion to int16.
    public struct Encoding: Sendable, Equatable {
        /// Whether samples are IEEE floats rather than integers.
        public var isFloat: Bool
        /// Bits per sample in the container (8, 16, 24, 32 or 64).
        public var bitsPerSample: Int

        /// Describes an encoding; `bitsPerSample` is the container size.
        public init(isFloat: Bool, bitsPerSample: Int) {
            self.isFloat = isFloat
            self.bitsPerSample = bitsPerSample
        }
    }

    /// The sample rates a file may declare, in Hz: telephone audio to studio recordings.
    public static let supportedSampleRates = 8000...192_000

    /// Reads the WAV file at `path`.
    ///
    /// - Throws: `audio-unreadable` for a missing or unreadable file, `audio-not-wav`,
    ///   `audio-truncated` or `audio-unsupported-format` for its content.
    public static func read(path: String) throws(AudioError) -> AudioChunk {
        try decode(readBytes(path: path), source: path).chunk
    }

    /// Reads the WAV file at `path` and reports the encoding it was stored in.
    public static func readWithEncoding(path: String) throws(AudioError) -> (chunk: AudioChunk, encoding: Encoding) {
        try decode(readBytes(path: path), source: path)
    }

    /// Decodes WAV bytes held in memory; `source` names them in error messages.
    public static func decode(_ data: Data, source: String = "WAV data") throws(AudioError) -> (
        chunk: AudioChunk, encoding: Encoding
    ) {
        let result: Result<(chunk: AudioChunk, encoding: Encoding), AudioError> = data.withUnsafeBytes { raw in
            do throws(AudioError) {
                return .success(try decode(raw, source: source))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Encodes `chunk` as a complete 16-bit PCM WAV file.
    ///
    /// - Throws: `audio-invalid-format` for a bad format or partial frame, `audio-unwritable`
    ///   when the data exceeds the 4 GiB a RIFF header can describe.
    public static func encode(_ chunk: AudioChunk) throws(AudioError) -> Data {
        try chunk.validate()
        var data = try header(format: chunk.format, sampleCount: chunk.samples.count)
        appendSamples(chunk.samples, to: &data)
        return data
    }

    /// Writes `chunk` to `path` as 16-bit PCM, atomically: the file appears whole or not at all.
    public static func write(_ chunk: AudioChunk, to path: String) throws(AudioError) {
        let data = try encode(chunk)
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw AudioError(.unwritable, "cannot write WAV file \(path): \(error.localizedDescription)")
        }
    }

    /// Size of the header `header(format:sampleCount:)` produces; the data starts here.
    static let headerSize = 44

    /// A canonical 44-byte 16-bit PCM header for `sampleCount` interleaved samples.
    static func header(format: AudioFormat, sampleCount: Int) throws(AudioError) -> Data {
        try format.validate()
        let dataBytes = sampleCount * 2
        guard dataBytes <= Int(UInt32.max) - (headerSize - 8) else {
            throw AudioError(.unwritable, "audio of \(sampleCount) samples is too long for a WAV file")
        }
        guard format.channels <= Int(UInt16.max) / 2, format.sampleRate <= Int(UInt32.max) / (format.channels * 2) else {
            throw AudioError(.invalidFormat, "format \(format) cannot be stored in a WAV header")
        }
        var data = Data(capacity: headerSize + dataBytes)
        data.append(contentsOf: Array("RIFF".utf8))
        appendUInt32(UInt32(headerSize - 8 + dataBytes), to: &data)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        appendUInt32(16, to: &data)
        appendUInt16(1, to: &data)
        appendUInt16(UInt16(format.channels), to: &data)
        appendUInt32(UInt32(format.sampleRate), to: &data)
        appendUInt32(UInt32(format.sampleRate * format.channels * 2), to: &data)
        appendUInt16(UInt16(format.channels * 2), to: &data)
        appendUInt16(16, to: &data)
        data.append(contentsOf: Array("data".utf8))
        appendUInt32(UInt32(dataBytes), to: &data)
        return data
    }

    /// Appends samples as little-endian int16.
    static func appendSamples(_ samples: [Int16], to data: inout Data) {
        #if _endian(big)
            let ordered = samples.map { $0.littleEndian }
            ordered.withUnsafeBytes { data.append(contentsOf: $0) }
        #else
            samples.withUnsafeBytes { data.append(contentsOf: $0) }
        #endif
    }

    static func appendUInt16(_ value: UInt16, to data: inout Data) {
        data.append(UInt8(value & 0xFF))
        data.append(UInt8(value >> 8))
    }

    static func appendUInt32(_ value: UInt32, to data: inout Data) {
        for shift in stride(from: 0, to: 32, by: 8) {
            data.append(UInt8((value >> UInt32(shift)) & 0xFF))
        }
    }

    private static func readBytes(path: String) throws(AudioError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AudioError(.unreadable, "no such audio file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw AudioError(.unreadable, "audio file is a directory: \(path)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw AudioError(.unreadable, "cannot read audio file \(path): \(error.localizedDescription)")
        }
    }

    private struct FormatChunk {
        var tag: Int
        var channels: Int
        var sampleRate: Int
        var blockAlign: Int
        var bitsPerSample: Int
    }

    private static let pcmTag = 0x0001
    private static let floatTag = 0x0003
    private static let extensibleTag = 0xFFFE

    /// Sizes that streaming writers (ffmpeg, sox, arecord to a pipe) leave in the header when
    /// they cannot seek back; a data chunk declaring one runs to the end of the file.
    private static let placeholderSizes: Set<Int> = [0xFFFF_FFFF, 0x7FFF_FFFF, 0x7FFF_F000]

    private static func decode(_ bytes: UnsafeRawBufferPointer, source: String) throws(AudioError) -> (
        chunk: AudioChunk, encoding: Encoding
    ) {
        guard bytes.count >= 12, fourCC(bytes, at: 0) == "RIFF", fourCC(bytes, at: 8) == "WAVE" else {
            throw AudioError(.notWAV, "not a RIFF/WAVE file: \(source)")
        }
        var format: FormatChunk?
        var dataRange: Range<Int>?
        var offset = 12
        scan: while bytes.count - offset >= 8 {
            let id = fourCC(bytes, at: offset)
            let size = Int(uint32(bytes, at: offset + 4))
            let body = offset + 8
            let available = bytes.count - body
            switch id {
            case "fmt ":
                guard size <= available else {
                    throw AudioError(.truncated, "WAV file ends inside its format chunk: \(source)")
                }
                format = try parseFormat(bytes, at: body, size: size, source: source)
            case "data":
                // A zero data size is only a placeholder when the RIFF size is unknown too;
                // otherwise it is a genuinely empty recording.
                let unknownLength =
                    placeholderSizes.contains(size)
                    || (size == 0 && [0, 0xFFFF_FFFF].contains(uint32(bytes, at: 4)))
                if unknownLength {
                    dataRange = body..<bytes.count
                    break scan
                } else if size <= available {
                    dataRange = body..<(body + size)
                } else {
                    throw AudioError(
                        .truncated,
                        "WAV file declares \(size) bytes of audio but holds \(available): \(source)")
                }
            default:
                guard size <= available else {
                    // A damaged trailing chunk does not matter once the audio has been found.
                    if format != nil, dataRange != nil { break scan }
                    throw AudioError(.truncated, "WAV file ends inside its '\(id)' chunk: \(source)")
                }
            }
            if format != nil, dataRange != nil { break }
            // RIFF pads odd-sized chunks to an even length.
            offset = body + size + (size & 1)
        }
        guard let format else {
            throw AudioError(.notWAV, "WAV file has no format chunk: \(source)")
        }
        guard let dataRange else {
            throw AudioError(.notWAV, "WAV file has no data chunk: \(source)")
        }
        let isFloat: Bool
        switch (format.tag, format.bitsPerSample) {
        case (pcmTag, 8), (pcmTag, 16), (pcmTag, 24), (pcmTag, 32): isFloat = false
        case (floatTag, 32), (floatTag, 64): isFloat = true
        default:
            let tag = String(format.tag, radix: 16)
            throw AudioError(
                .unsupportedFormat,
                "unsupported WAV encoding (format tag 0x\(tag), \(format.bitsPerSample) bits): \(source)")
        }
        let bytesPerSample = format.bitsPerSample / 8
        guard format.blockAlign == bytesPerSample * format.channels else {
            throw AudioError(
                .notWAV,
                "WAV block align \(format.blockAlign) does not match \(format.channels) channels of \(format.bitsPerSample) bits: \(source)"
            )
        }
        let frames = dataRange.count / format.blockAlign
        let count = frames * format.channels
        let samples = [Int16](unsafeUninitializedCapacity: count) { buffer, initialized in
            let base = dataRange.lowerBound
            switch (isFloat, bytesPerSample) {
            case (false, 1):
                for i in 0..<count { buffer[i] = Int16(Int(bytes[base + i]) - 128) << 8 }
            case (false, 2):
                for i in 0..<count {
                    buffer[i] = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 2 * i, as: Int16.self))
                }
            case (false, 3):
                for i in 0..<count {
                    let at = base + 3 * i
                    // The top two bytes of a 24-bit sample are its int16 value.
                    buffer[i] = Int16(bitPattern: UInt16(bytes[at + 1]) | UInt16(bytes[at + 2]) << 8)
                }
            case (false, 4):
                for i in 0..<count {
                    let value = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 4 * i, as: Int32.self))
                    buffer[i] = Int16(truncatingIfNeeded: value >> 16)
                }
            case (true, 4):
                for i in 0..<count {
                    let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 4 * i, as: UInt32.self))
                    buffer[i] = int16(fromUnit: Double(Float(bitPattern: bits)))
                }
            default:
                for i in 0..<count {
                    let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 8 * i, as: UInt64.self))
                    buffer[i] = int16(fromUnit: Double(bitPattern: bits))
                }
            }
            initialized = count
        }
        let chunk = AudioChunk(format: AudioFormat(sampleRate: format.sampleRate, channels: format.channels), samples: samples)
        return (chunk, Encoding(isFloat: isFloat, bitsPerSample: format.bitsPerSample))
    }

    private static func parseFormat(_ bytes: UnsafeRawBufferPointer, at body: Int, size: Int, source: String) throws(AudioError)
        -> FormatChunk
    {
        guard size >= 16 else {
            throw AudioError(.notWAV, "WAV format chunk is only \(size) bytes: \(source)")
        }
        var tag = Int(uint16(bytes, at: body))
        let channels = Int(uint16(bytes, at: body + 2))
        let sampleRate = Int(uint32(bytes, at: body + 4))
        let blockAlign = Int(uint16(bytes, at: body + 12))
        let bits = Int(uint16(bytes, at: body + 14))
        if tag == extensibleTag {
            // WAVEFORMATEXTENSIBLE: cbSize, valid bits, channel mask, then a GUID whose first
            // two bytes are the real format tag.
            guard size >= 40 else {
                throw AudioError(.notWAV, "WAV extensible format chunk is only \(size) bytes: \(source)")
            }
            tag = Int(uint16(bytes, at: body + 24))
        }
        guard channels > 0, sampleRate > 0 else {
            throw AudioError(.notWAV, "WAV file declares \(channels) channels at \(sampleRate) Hz: \(source)")
        }
        // Converting a 1 Hz file to 16 kHz would multiply its size by 16000: refuse rates no
        // recording uses before anything is allocated for them.
        guard supportedSampleRates.contains(sampleRate) else {
            throw AudioError(
                .unsupportedFormat,
                "WAV sample rate \(sampleRate) Hz is outside \(supportedSampleRates.lowerBound)-\(supportedSampleRates.upperBound) Hz: \(source)"
            )
        }
        return FormatChunk(tag: tag, channels: channels, sampleRate: sampleRate, blockAlign: blockAlign, bitsPerSample: bits)
    }

    /// Scales a float sample in [-1, 1] to int16, clamping overshoot and mapping NaN to silence.
    private static func int16(fromUnit value: Double) -> Int16 {
        guard !value.isNaN else { return 0 }
        let scaled = (value * 32768).rounded()
        return Int16(min(max(scaled, -32768), 32767))
    }

    private static func fourCC(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }

    private static func uint16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    private static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
