import CCrypto

/// The WPA pre-shared key of a passphrase: PBKDF2-HMAC-SHA1(passphrase, ssid, 4096, 32 bytes),
/// as IEEE 802.11i defines it and `wpa_passphrase` prints it, computed by Debian's nettle.
///
/// Needed because wpa_supplicant's config reader ends a quoted value at its second `"` and
/// treats a `#` after it as a comment, so a passphrase containing `"` cannot be written quoted;
/// its 64-hex-digit key can. SHA-1 here is the standard's choice, not a security decision.
/// This file is SusiServer's one caller of nettle.
enum WPAPassphrase {
    /// The 32-byte key as 64 lower-case hex digits.
    static func hexKey(passphrase: String, ssid: String) -> String {
        key(password: Array(passphrase.utf8), salt: Array(ssid.utf8)).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// PBKDF2-HMAC-SHA1 with 4096 iterations, 32 bytes out.
    static func key(password: [UInt8], salt: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        password.withUnsafeBufferPointer { password in
            salt.withUnsafeBufferPointer { salt in
                output.withUnsafeMutableBufferPointer { output in
                    susi_pbkdf2_hmac_sha1(
                        password.baseAddress, password.count, salt.baseAddress, salt.count, 4096,
                        output.baseAddress, output.count)
                }
            }
        }
        return output
    }
}
