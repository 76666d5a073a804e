import Foundation
import SusiCore

#if canImport(Glibc)
    import Glibc
#endif

/// Asks a person at a terminal for a line (`susi login`'s email and password); the password
/// prompt turns echo off while it reads.
public struct TerminalPrompt: Sendable {
    /// Where lines are read from: standard input unless a test passes another descriptor.
    public var input: Int32 = STDIN_FILENO

    /// A prompt reading standard input.
    public init() {}

    /// Writes `text` to stderr and reads one line from `input`. With `echo` false, `input` must
    /// be a terminal: echo is off while reading and restored after, whatever happens. Without a
    /// terminal, a line with `echo` is read anyway (`susi login < file`).
    /// - Throws: `LoginInputError` when there is no terminal (for a password), no line, or echo
    ///   cannot be turned off.
    public func ask(_ text: String, echo: Bool) throws(LoginInputError) -> String {
        guard isatty(input) == 1 else {
            if echo, let line = readLine() { return line }
            throw LoginInputError(
                message: echo
                    ? "no email on standard input; use --email"
                    : "no terminal to ask for the password; use --password-stdin")
        }
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        let canSilence = !echo && tcgetattr(input, &saved) == 0
        if canSilence {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(input, TCSAFLUSH, &silent)
        }
        defer {
            if canSilence {
                _ = tcsetattr(input, TCSAFLUSH, &saved)
                // The Enter key was not echoed either.
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        guard echo || canSilence else {
            throw LoginInputError(message: "cannot turn off echo on this terminal; use --password-stdin")
        }
        guard let line = readLine() else { throw LoginInputError(message: "no input") }
        return line
    }

    /// `susi login`'s password: one line of `input` when `fromInput` (`--password-stdin`), else
    /// asked for on the terminal without echo.
    /// - Throws: `LoginInputError` when there is no line, or no terminal to ask on.
    public func password(for email: String, fromInput: Bool) throws(LoginInputError) -> String {
        guard fromInput else { return try ask("Password for \(email): ", echo: false) }
        guard let line = readLine() else { throw LoginInputError(message: "no password on standard input") }
        return line
    }

    /// One line of `input` without its line end (`\n` or `\r\n`); nil at the end of input
    /// before any byte. Reads a byte at a time so nothing after the line is consumed.
    public func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(input, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.isEmpty, byte != UInt8(ascii: "\n") { return nil }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The login's input could not be read (no terminal, end of input).
public struct LoginInputError: SusiError {
    /// What was missing and which option helps.
    public let message: String

    /// A failure saying `message`.
    public init(message: String) { self.message = message }
    /// Always `.config`.
    public var stage: Stage { .config }
    /// Always `account-no-input`.
    public var code: String { "account-no-input" }
}
