import Foundation
import SusiCore
import SusiModel

/// The owner token: the secret that control routes, `/settings` and `/status` details require
/// once the speaker is set up, kept in `owner-token` beside the config (mode 0600).
///
/// It is made when setup finishes (and given to the app in the `/config` reply), or on the
/// first start of a speaker that was set up before tokens existed; `susi setup token` prints
/// it and `--rotate` replaces it. The file is read on every check, so a rotation by another
/// process counts at once. A token is 32 random bytes from the system's generator, written
/// as 43 characters of unpadded base64url.
public struct OwnerTokenFile: StateFile, Sendable, Equatable {
    public static var location: KeyPath<StateDirectory, String> { \.ownerToken }

    /// The file's path.
    public let path: String

    /// A token file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The stored token; nil when there is none, or the file does not hold a well-formed one
    /// (then nothing matches it, so access stays closed rather than open).
    public var token: String? {
        trimmedText.flatMap { Self.isWellFormed($0) ? $0 : nil }
    }

    /// Whether a file exists at all (well-formed or not).
    public var exists: Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// The stored token, making one first when there is none.
    public func ensure() throws(SetupError) -> String {
        if let token { return token }
        return try rotate()
    }

    /// Replaces the token with a new one (sessions from the old one stop working) and returns it.
    @discardableResult
    public func rotate() throws(SetupError) -> String {
        let token = Self.generate()
        do throws(ConfigError) {
            try ConfigStore.writeAtomically(Data((token + "\n").utf8), to: path)
        } catch {
            throw SetupError(.storeFailed, error.message)
        }
        return token
    }

    /// Whether `candidate` is the stored token, compared in time independent of where they
    /// differ. False when there is no token.
    public func matches(_ candidate: String) -> Bool {
        guard let token else { return false }
        return Self.constantTimeEqual(token, candidate)
    }

    /// A new random token.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// 16 to 128 characters of the base64url alphabet.
    static func isWellFormed(_ text: String) -> Bool {
        (16...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    return true
                default:
                    return false
                }
            }
    }

    /// Equal byte strings, looking at every byte of the longer one whatever the first
    /// difference, so the time taken does not tell how much of a guess was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        difference |= left.count == right.count ? 0 : 1
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : 0
            let y = index < right.count ? right[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
