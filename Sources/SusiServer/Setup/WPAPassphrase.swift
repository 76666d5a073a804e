/// The WPA pre-shared key of a passphrase: PBKDF2-HMAC-SHA1(passphrase, ssid, 4096, 32 bytes),
/// as IEEE 802.11i defines it and `wpa_passphrase` prints it.
///
/// Needed because wpa_supplicant's config reader ends a quoted value at its second `"` and
/// treats a `#` after it as a comment, so a passphrase containing `"` cannot be written quoted;
/// its 64-hex-digit key can. SHA-1 here is the standard's choice, not a security decision.
enum WPAPassphrase {
    /// The 32-byte key as 64 lower-case hex digits.
    static func hexKey(passphrase: String, ssid: String) -> String {
        key(password: Array(passphrase.utf8), salt: Array(ssid.utf8)).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// PBKDF2-HMAC-SHA1 with 4096 iterations, 32 bytes out (two blocks).
    static func key(password: [UInt8], salt: [UInt8]) -> [UInt8] {
        let hmac = HMACSHA1(key: password)
        var output: [UInt8] = []
        for block in 1...2 {
            let index: [UInt8] = [0, 0, 0, UInt8(block)]
            var u = hmac.mac(salt + index)
            var t = u
            for _ in 1..<4096 {
                u = hmac.mac(u)
                for i in 0..<t.count { t[i] ^= u[i] }
            }
            output += t
        }
        return Array(output.prefix(32))
    }
}

/// HMAC-SHA1 with a fixed key (RFC 2104).
private struct HMACSHA1 {
    private let inner: [UInt8]
    private let outer: [UInt8]

    init(key: [UInt8]) {
        var block = key.count > 64 ? SHA1.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        inner = block.map { $0 ^ 0x36 }
        outer = block.map { $0 ^ 0x5c }
    }

    func mac(_ message: [UInt8]) -> [UInt8] {
        SHA1.digest(outer + SHA1.digest(inner + message))
    }
}

/// SHA-1 (FIPS 180-4), only for the WPA key derivation above.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var data = message
        let bitLength = UInt64(message.count) * 8
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] = UInt32(data[j]) << 24 | UInt32(data[j + 1]) << 16 | UInt32(data[j + 2]) << 8 | UInt32(data[j + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
        }
        return h.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) } }
    }
}
