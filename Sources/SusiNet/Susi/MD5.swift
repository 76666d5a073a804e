import CCrypto

/// MD5 (RFC 1321) from Debian's nettle, only for Gravatar addresses, which are defined as the
/// MD5 of the email.
///
/// Not for security: MD5 is broken for that. This file is SusiNet's one caller of nettle.
public enum MD5 {
    /// The 16-byte digest of `bytes`.
    public static func digest<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        let message = Array(bytes)
        var digest = [UInt8](repeating: 0, count: Int(MD5_DIGEST_SIZE))
        message.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                guard let target = output.baseAddress else { return }
                susi_md5(input.baseAddress, input.count, target)
            }
        }
        return digest
    }

    /// The digest of `text`'s UTF-8 bytes as 32 lower-case hex digits.
    public static func hex(_ text: String) -> String {
        digest(Array(text.utf8)).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
