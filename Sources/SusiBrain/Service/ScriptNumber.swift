/// How SUSI writes a number that a `!javascript:` script computed.
///
/// SUSI runs scripts in Nashorn and takes the result's Java `toString()` as `$!$`. Nashorn
/// hands back a `java.lang.Double` for numbers it computed at run time (`Math.pow(10, 3)` is
/// "1000.0", `parseInt("456", 8)` is "302.0", as SUSI's own tests and the community skills'
/// `!expect` lines show) and a `java.lang.Integer` for integer constants it folded while
/// compiling (`5 + 8` is "13"). mujs has only doubles, so the script's text decides, the way
/// Nashorn's constant folding does: a script that is nothing but integer literals, `+ - * / %`
/// and parentheses gives an Integer when its value is a 32-bit integer; any other gives a
/// Double.
enum ScriptNumber {
    /// The text SUSI would give for `value`, the completion value of `script`.
    static func text(of value: Double, script: String) -> String {
        if isIntegerConstant(script), let integer = Int32(exactly: value), !(value == 0 && value.sign == .minus) {
            return String(integer)
        }
        return javaText(of: value)
    }

    /// Whether `script` is an arithmetic expression of integer literals only (Nashorn folds it
    /// to a constant while compiling), with optional trailing semicolons.
    static func isIntegerConstant(_ script: String) -> Bool {
        var body = Substring(script.trimmedBlanks)
        while body.last == ";" || body.last?.isWhitespace == true { body = body.dropLast() }
        guard body.contains(where: \.isASCIIDigit) else { return false }
        return body.allSatisfy { $0.isASCIIDigit || $0.isWhitespace || "+-*/%()".contains($0) }
    }

    /// `Double.toString` of Java: the shortest digits that identify the value, laid out as
    /// `302.0` or `0.001` for magnitudes in [10^-3, 10^7), else as `1.0E7` or `1.5E-5`.
    static func javaText(of value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let (digits, point) = shortestDigits(of: magnitude)
        if magnitude >= 1e-3, magnitude < 1e7 {
            if point <= 0 {
                return sign + "0." + String(repeating: "0", count: -point) + digits
            }
            if digits.count <= point {
                return sign + digits + String(repeating: "0", count: point - digits.count) + ".0"
            }
            return sign + digits.prefix(point) + "." + digits.dropFirst(point)
        }
        let fraction = digits.dropFirst()
        return sign + digits.prefix(1) + "." + (fraction.isEmpty ? "0" : fraction) + "E" + String(point - 1)
    }

    /// The significant digits of a positive finite `value` (no leading or trailing zeros)
    /// and the position of the decimal point: `value` is `0.<digits> × 10^point`.
    private static func shortestDigits(of value: Double) -> (digits: String, point: Int) {
        // Swift's description is the shortest text that reads back as the same double, as
        // Java's is: "302.0", "0.9999999999999999", "1e-05", "1.2345e+20".
        let text = value.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = mantissa[0]
        let fraction = mantissa.count > 1 ? mantissa[1] : ""
        var digits = Substring(whole + fraction)
        var point = whole.count + exponent
        while digits.first == "0" {
            digits = digits.dropFirst()
            point -= 1
        }
        while digits.last == "0" { digits = digits.dropLast() }
        return (String(digits), point)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
