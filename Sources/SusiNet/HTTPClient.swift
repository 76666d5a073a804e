import Foundation

/// Sends HTTP requests. Implementations: `CurlHTTPClient`; tests may supply fakes.
///
/// `send` blocks the calling thread for up to the request's `totalTimeout`. Do not call it from
/// Swift concurrency's cooperative pool; use `fetch`, which runs it on a thread of its own.
public protocol HTTPClient: Sendable {
    /// Performs the request and returns the final response (any status), or throws `HTTPError`.
    /// Blocking; safe to call from several threads at once.
    func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse
}

extension HTTPClient {
    /// Performs the request on a dedicated thread, so the cooperative pool never blocks.
    ///
    /// Cancelling the task aborts the transfer (within about a second) with `http-cancelled`.
    public func fetch(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        var request = request
        let cancellation = request.cancellation ?? HTTPCancellation()
        request.cancellation = cancellation
        let finalRequest = request
        let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    do throws(HTTPError) {
                        continuation.resume(returning: .success(try self.send(finalRequest)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
                thread.name = "susi-http"
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}
