/// What happened to the SUSI account the apps sent.
public enum AccountLinkResult: Sendable, Equatable {
    /// Logged in now; the token is stored.
    case loggedIn
    /// The SUSI server could not be reached (the speaker is usually offline while on its own
    /// hotspot); the credentials are kept for a later login and never shown anywhere.
    case pending
}

/// Stores the SUSI account for the speaker's SUSI client: the `/auth` route's back end.
///
/// The executable implements it with the SUSI login client and the account store (SusiServer
/// does not reach the network itself). Methods may block for the login's timeout; they are
/// called from a server thread.
public protocol AccountLinking: Sendable {
    /// Logs in with `email` and `password` when online, else keeps them for `retryPending`.
    ///
    /// - Throws: `SetupError` `.loginRefused` when the server refused the credentials (nothing
    ///   is kept then), `.storeFailed` when nothing could be saved.
    func link(email: String, password: String) throws(SetupError) -> AccountLinkResult
    /// The person chose to use no account: forgets credentials waiting for a login and signs
    /// out of the linked account, so no token goes on SUSI requests and the speaker is not
    /// registered to that account again (it is taken off the account's devices where the
    /// server allows).
    ///
    /// - Throws: `SetupError` `.storeFailed` when the login could not be removed.
    func signOut() throws(SetupError)
}
