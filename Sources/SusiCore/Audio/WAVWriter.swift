import Foundation

/// Writes a 16-bit PCM WAV file chunk by chunk, for audio whose length is not known up front.
///
/// Samples go to a hidden temporary file beside the destination (`.NAME.partial-UUID`).
/// `close()` patches the RIFF and data sizes into the header, flushes to disk and renames the
/// file into place, so the destination path never holds a half-written file: a failure, a
/// `cancel()` or dropping the writer without closing removes the temporary file instead.
/// Use from one thread or task at a time.
public final class WAVWriter {
    /// Where the finished file will appear.
    public let path: String
    /// The format every appended chunk must have.
    public let format: AudioFormat
    /// Frames appended so far.
    public private(set) var framesWritten = 0

    private let temporaryPath: String
    private var handle: FileHandle?
    private var samplesWritten = 0

    /// Creates the temporary file and writes a provisional header.
    ///
    /// - Throws: `audio-invalid-format` for a bad format, `audio-unwritable` when the directory
    ///   does not exist or is not writable.
    public init(path: String, format: AudioFormat) throws(AudioError) {
        try format.validate()
        self.path = path
        self.format = format
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        temporaryPath = directory + "/." + url.lastPathComponent + ".partial-" + UUID().uuidString
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil) else {
            throw AudioError(.unwritable, "cannot create WAV file in \(directory) for \(path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporaryPath))
            self.handle = handle
            try handle.write(contentsOf: WAVFile.header(format: format, sampleCount: 0))
        } catch {
            abandon()
            throw AudioError(.unwritable, "cannot write WAV file \(path): \(error.localizedDescription)")
        }
    }

    deinit {
        abandon()
    }

    /// Appends a chunk; its format must equal `format`.
    ///
    /// - Throws: `audio-format-mismatch`, `audio-invalid-format` for a partial frame,
    ///   `audio-unwritable` on an I/O failure or after `close()`/`cancel()` (the partial file is
    ///   then removed).
    public func append(_ chunk: AudioChunk) throws(AudioError) {
        guard chunk.format == format else {
            throw AudioError(.formatMismatch, "chunk in \(chunk.format) appended to WAV file of \(format): \(path)")
        }
        try chunk.validate()
        guard let handle else {
            throw AudioError(.unwritable, "WAV file already closed: \(path)")
        }
        guard (samplesWritten + chunk.samples.count) * 2 <= Int(UInt32.max) - (WAVFile.headerSize - 8) else {
            abandon()
            throw AudioError(.unwritable, "WAV file would exceed 4 GiB: \(path)")
        }
        var data = Data(capacity: chunk.samples.count * 2)
        WAVFile.appendSamples(chunk.samples, to: &data)
        do {
            try handle.write(contentsOf: data)
        } catch {
            abandon()
            throw AudioError(.unwritable, "cannot write WAV file \(path): \(error.localizedDescription)")
        }
        samplesWritten += chunk.samples.count
        framesWritten += chunk.frameCount
    }

    /// Finishes the header, syncs and moves the file to `path`, replacing any file there.
    ///
    /// Calling it again after success does nothing.
    public func close() throws(AudioError) {
        guard let handle else { return }
        do {
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: WAVFile.header(format: format, sampleCount: samplesWritten))
            try handle.synchronize()
            try handle.close()
            self.handle = nil
            // rename(2) replaces the destination in one step; moveItem would refuse an existing file.
            guard rename(temporaryPath, path) == 0 else {
                let reason = String(cString: strerror(errno))
                abandon()
                throw AudioError(.unwritable, "cannot move WAV file into place at \(path): \(reason)")
            }
        } catch let error as AudioError {
            throw error
        } catch {
            abandon()
            throw AudioError(.unwritable, "cannot finish WAV file \(path): \(error.localizedDescription)")
        }
    }

    /// Stops writing and removes the temporary file; `path` is left untouched.
    public func cancel() {
        abandon()
    }

    private func abandon() {
        try? handle?.close()
        handle = nil
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }
}
