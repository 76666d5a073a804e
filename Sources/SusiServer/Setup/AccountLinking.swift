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
    /// Forgets credentials waiting for a login (the person chose to use no account).
    func forgetPending() throws(SetupError)
}
