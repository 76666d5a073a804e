/// Makes outside text (SSIDs, answers, URLs) safe to put in a log line or on a terminal.
///
/// A newline in an SSID must not forge a second log line, and an answer from a server must
/// not move the cursor, retitle the window or rewrite the screen of the person reading it.
public enum ControlCharacters {
    /// `text` with every control character written out visibly: `\n`, `\r`, `\t`, and `\u{1B}`
    /// style for the rest (C0, DEL, C1, the Unicode line and paragraph separators, and the
    /// bidi controls of `isBidiControl`), so one message stays one line, escape codes reach
    /// the terminal as plain text and no right-to-left override reorders what follows. A
    /// backslash is left alone: the escapes are for people reading logs, not for parsing them
    /// back.
    public static func escapedForLog(_ text: String) -> String {
        escaping(text, where: needsEscape) { scalar in
            switch scalar {
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default: return swiftEscape(scalar)
            }
        }
    }

    /// `text` without terminal escape sequences and control characters, for printing text
    /// that came from elsewhere (a SUSI answer) to a terminal; newlines and tabs stay.
    ///
    /// Removes whole sequences, not only their ESC, so no `[2J` is left behind: CSI
    /// (`ESC [` … final byte, or C1 `U+009B`), OSC, DCS, SOS, PM and APC strings up to their
    /// BEL or `ESC \`, two- and three-character escapes (`ESC c`, `ESC ( B`), and any other
    /// C0, DEL or C1 control, including a carriage return that would overwrite the line.
    public static func strippedForTerminal(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar.value {
            case 0x0A, 0x09:
                result.append(scalar)
            case 0x1B:
                guard index < scalars.count else { break }
                let next = scalars[index]
                index += 1
                switch next {
                case "[": index = endOfControlSequence(scalars, from: index)
                case "]", "P", "X", "^", "_": index = endOfString(scalars, from: index)
                default:
                    guard !isControl(next) else {
                        index -= 1
                        break
                    }
                    // `ESC (` style escapes carry intermediate bytes before their final one.
                    var at = index - 1
                    while at < scalars.count, (0x20...0x2F).contains(scalars[at].value) { at += 1 }
                    index = min(at + 1, scalars.count)
                }
            case 0x9B:
                index = endOfControlSequence(scalars, from: index)
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F:
                index = endOfString(scalars, from: index)
            default:
                if !isControl(scalar) { result.append(scalar) }
            }
        }
        return String(result)
    }

    /// `text` made safe for a terminal: escape sequences and control characters removed as by
    /// `strippedForTerminal` (newlines and tabs stay), and bidi controls written out as
    /// `\u{202E}`, so a right-to-left override cannot make `exe.txt` read as `txt.exe`. For
    /// every line `susi` prints.
    public static func escapedForTerminal(_ text: String) -> String {
        escaping(strippedForTerminal(text), where: isBidiControl, as: swiftEscape)
    }

    /// JSON text (one or more lines of it) with the characters that could drive or reorder a
    /// terminal written as JSON `\uXXXX` escapes: C0 controls but newline and tab, DEL, C1,
    /// the line and paragraph separators and the bidi controls. Valid JSON stays valid and
    /// means the same, since such characters can only appear inside its strings (raw C0
    /// there is not even valid JSON).
    public static func escapedForJSON(_ text: String) -> String {
        escaping(text, where: { needsEscape($0) && $0 != "\n" && $0 != "\t" }) { scalar in
            let digits = String(scalar.value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
    }

    /// Whether `scalar` is an invisible bidi control that reorders the text around it: the
    /// left-to-right and right-to-left marks (U+200E, U+200F), the Arabic letter mark
    /// (U+061C), embeddings and overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    // MARK: Helpers

    /// `text` with every scalar `needs` holds written as `escape` gives it.
    private static func escaping(
        _ text: String, where needs: (Unicode.Scalar) -> Bool, as escape: (Unicode.Scalar) -> String
    ) -> String {
        guard text.unicodeScalars.contains(where: needs) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needs(scalar) { result.append(contentsOf: escape(scalar).unicodeScalars) } else { result.append(scalar) }
        }
        return String(result)
    }

    /// `\u{202E}`: Swift's spelling, for people reading.
    private static func swiftEscape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029 || isBidiControl(scalar)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Past a CSI's parameter and intermediate bytes and its final byte (0x40-0x7E); stops
    /// early at anything else, which ends a malformed sequence.
    private static func endOfControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            let value = scalars[index].value
            index += 1
            if (0x40...0x7E).contains(value) { return index }
            if !(0x20...0x3F).contains(value) { return index - 1 }
        }
        return index
    }

    /// Past the BEL or `ESC \` (or C1 ST) that ends an OSC/DCS/SOS/PM/APC string; the rest of
    /// the text when it never ends, since an unterminated string swallows it on a terminal too.
    private static func endOfString(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            let value = scalars[index].value
            index += 1
            if value == 0x07 || value == 0x9C { return index }
            if value == 0x1B, index < scalars.count, scalars[index] == "\\" { return index + 1 }
        }
        return index
    }
}
