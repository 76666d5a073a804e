import SusiModel
import SusiServer

/// `susi setup --reset|status|token`: the setup mode and the owner token of the config in
/// `store`, both kept beside it (`SetupStateFile`, `OwnerTokenFile`).
///
/// Reads the files on every call, so a change by another process (a running `susi run`)
/// counts at once.
public struct SetupMode: Sendable {
    private let state: SetupStateFile
    private let tokenFile: OwnerTokenFile

    /// The setup mode and owner token beside the config file of `store`.
    public init(store: ConfigStore) {
        state = SetupStateFile(configStore: store)
        tokenFile = OwnerTokenFile(configStore: store)
    }

    /// Whether the setup routes are open now.
    public var isOn: Bool { state.isInSetupMode }

    /// Why setup mode came back on by itself (a failed Wi-Fi join); nil when it is off or
    /// was not turned on that way.
    public var reason: String? { state.setupModeReason }

    /// Back to setup mode, with a new owner token first (`OwnerAccess.resetSetup`).
    /// - Throws: `SetupError` when either file cannot be written.
    public func reset() throws(SetupError) {
        try OwnerAccess(tokenFile: tokenFile, setupState: state).resetSetup()
    }

    /// The owner token the control routes want after setup, made now if there is none yet;
    /// with `rotate`, a new one replacing it.
    /// - Throws: `SetupError` when the token file cannot be written.
    public func ownerToken(rotate: Bool) throws(SetupError) -> String {
        rotate ? try tokenFile.rotate() : try tokenFile.ensure()
    }
}
