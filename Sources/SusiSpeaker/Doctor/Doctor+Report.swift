extension Doctor {
    /// `susi doctor`'s lines: topic, mark (`ok`, `warning`, `FAILED`) and detail, in columns.
    public static func lines(_ checks: [Check]) -> [String] {
        checks.map { check in
            let mark = check.status == .failed ? "FAILED" : check.status.rawValue
            return "\(check.topic.padding(toLength: 10, withPad: " ", startingAt: 0)) "
                + "\(mark.padding(toLength: 7, withPad: " ", startingAt: 0)) \(check.detail)"
        }
    }

    /// Nil when the speaker can work (`isHealthy`), else the failure naming what is missing.
    public static func failure(_ checks: [Check]) -> SetupFailure? {
        guard !isHealthy(checks) else { return nil }
        let failed = checks.filter { $0.status == .failed }.map(\.topic)
        return SetupFailure("essential checks failed: \(failed.joined(separator: ", "))")
    }
}
