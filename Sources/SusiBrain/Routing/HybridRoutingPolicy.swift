import SusiModel

/// Decides, from the built-in brain's reply, whether a query is answered on the speaker
/// (device control and local-only intents) or sent to the SUSI server.
///
/// The rule, in order:
/// 1. No local answer, or one from a catch-all skill (`fallback`): remote.
/// 2. The answering skill's `::routing` header, `local` or `remote`, decides when present.
/// 3. A skill in `localSkills` (by default time, timer, volume, voice, room, repeat,
///    arithmetic: things only the speaker knows or does, or answers exactly): local.
/// 4. A reply whose actions control the device (stop, pause, resume, restart, next,
///    previous, shuffle, audio_volume, settings, timer_set, or a planned answer): local.
///    So "stop" and "pause" from the media skill are local, "play some jazz" is remote (the
///    server finds the song).
/// 5. Everything else: remote, with the local reply kept as the fallback.
public struct HybridRoutingPolicy: Sendable, Equatable {
    /// Skill ids answered locally whatever their actions.
    public var localSkills: Set<String>
    /// Skill ids that only say "I don't know"; their answer is never preferred to the server's.
    public var catchAllSkills: Set<String>
    /// Skill ids whose `::routing` header asks for the server.
    public var remoteSkills: Set<String>

    /// The bundled local-only skills.
    public static let defaultLocalSkills: Set<String> = [
        "time", "timer", "volume", "voice", "room", "repeat", "arithmetic",
    ]
    /// The bundled catch-all skill.
    public static let defaultCatchAllSkills: Set<String> = ["fallback"]
    /// A policy from explicit sets.
    public init(
        localSkills: Set<String> = HybridRoutingPolicy.defaultLocalSkills,
        catchAllSkills: Set<String> = HybridRoutingPolicy.defaultCatchAllSkills,
        remoteSkills: Set<String> = []
    ) {
        self.localSkills = localSkills
        self.catchAllSkills = catchAllSkills
        self.remoteSkills = remoteSkills
    }

    /// The default sets adjusted by each skill's `::routing local|remote` header
    /// (`::routing catch-all` marks a catch-all skill).
    public init(skills: [Skill]) {
        self.init()
        for skill in skills {
            switch skill.headers["routing"]?.lowercased().trimmingCharacters(in: .whitespaces) {
            case "local":
                localSkills.insert(skill.id)
                remoteSkills.remove(skill.id)
            case "remote":
                localSkills.remove(skill.id)
                remoteSkills.insert(skill.id)
            case "catch-all", "fallback":
                catchAllSkills.insert(skill.id)
            default:
                break
            }
        }
    }

    /// Whether the built-in brain's `reply` is the answer to give without asking the server.
    public func answersLocally(_ reply: ChatResponse) -> Bool {
        guard reply.hasAnswer, let skill = reply.skill else { return false }
        if catchAllSkills.contains(skill) || remoteSkills.contains(skill) { return false }
        if localSkills.contains(skill) { return true }
        return reply.actions.contains { action in
            if case .answer(let answer) = action { return answer.isPlanned }
            return action.controlsSpeaker
        }
    }
}
