public import HTTPTypes
public import ResponderChain

/// The HTTP answer to an outcome of the chain: a status, a `Retry-After` when trying again later
/// may work, and a short error text that leaks nothing of the handler's details.
public struct OutcomeResponse: Hashable, Sendable {
    /// The answer's status.
    public var status: HTTPResponse.Status
    /// Seconds for the `Retry-After` header, or `nil` for none.
    public var retryAfter: Int?
    /// A short, safe error text for the answer's body (`nil` when the event was handled): the
    /// outcome's kind, and for a failure the thrown error's type name, never its message.
    public var error: String?

    /// An answer.
    public init(status: HTTPResponse.Status, retryAfter: Int? = nil, error: String? = nil) {
        self.status = status
        self.retryAfter = retryAfter
        self.error = error
    }

    /// 499 Client Closed Request (nginx's code; not in the HTTP standard): the client went away
    /// before the answer. Nobody reads it, but the access log and the status metrics say why the
    /// request ended.
    public static let clientClosedRequest = HTTPResponse.Status(
        code: 499, reasonPhrase: "Client Closed Request")

    /// The answer to `outcome`, by this table:
    ///
    /// | outcome | status | why |
    /// | --- | --- | --- |
    /// | `handled` | `handled` (200, or 201 for a route that creates) | done |
    /// | `unhandled` | 422 Unprocessable Content | the route exists (404 would tell the client the URL is wrong, and caches may keep a 404), the request was well formed, but nothing in the chain takes what it asks for |
    /// | `rejected`, `.shuttingDown`, `.limitReached`, `.posterCancelled` | 503 + `Retry-After` | the service is draining or full: the same request later, or on another instance, may work |
    /// | `rejected`, `.notStored` | 503 + `Retry-After` | the store could not take the post (a full disk, a locked file): nothing was accepted, and later may work |
    /// | `rejected`, `.duplicate` | 409 Conflict | the same idempotency key was used by an earlier post (a route that posts answers a retry with the first post instead: see `OrderRoutes`) |
    /// | `rejected`, `.forwardingLimitReached`, `.wouldDeadlock`, `.unnamedSender` | 500 | a bug in the chain's wiring: retrying won't help |
    /// | `timedOut` | 504 Gateway Timeout | the chain did not answer within the send's deadline |
    /// | `cancelled`, `.taskCancelled` | 499 Client Closed Request | the request's task was cancelled: the client went away (503 would blame the server for what the client did) |
    /// | `cancelled`, `.shutdown` | 503 + `Retry-After` | the service's shutdown ended the event: the server's doing, and retryable |
    /// | `cancelled`, `.ticketCancelled`, `.withdrawn` | 499 Client Closed Request | the sender gave the event up |
    /// | `cancelled`, `.keptForNextStart` | 202 Accepted | a durable system's shutdown left the post in its store: the next start delivers it (a 503 would invite a retry, a second order) |
    /// | `interrupted` | 502 Bad Gateway | the chain is broken: a responder on the way is gone, like an upstream that is down |
    /// | `failed` | 500, error `failed: <error type>` | a handler threw; its type names the failure, its message stays in the logs |
    /// | `cycleDetected` | 500 | the chain's wiring loops: a bug |
    ///
    /// - Parameters:
    ///   - outcome: How the send ended.
    ///   - handled: The status of a handled event: 200, or 201 where the route creates something.
    ///   - retryAfter: Seconds for `Retry-After` on a 503.
    public static func forOutcome(
        _ outcome: Outcome, handled: HTTPResponse.Status = .ok, retryAfter: Int = 5
    ) -> OutcomeResponse {
        switch outcome {
        case .handled:
            return OutcomeResponse(status: handled)
        case .unhandled:
            return OutcomeResponse(status: .unprocessableContent, error: "unhandled")
        case .rejected(let rejection):
            switch rejection.reason {
            case .shuttingDown, .limitReached, .posterCancelled:
                return OutcomeResponse(
                    status: .serviceUnavailable, retryAfter: retryAfter,
                    error: "rejected: \(rejection.reason)")
            case .notStored:
                // The store's error text may hold paths or data: only the kind goes out.
                return OutcomeResponse(
                    status: .serviceUnavailable, retryAfter: retryAfter, error: "rejected: not stored")
            case .duplicate(let first, _):
                return OutcomeResponse(status: .conflict, error: "rejected: duplicate of \(first)")
            case .forwardingLimitReached, .wouldDeadlock, .unnamedSender:
                return OutcomeResponse(status: .internalServerError, error: "rejected: \(rejection.reason)")
            }
        case .timedOut:
            return OutcomeResponse(status: .gatewayTimeout, error: "timed out")
        case .cancelled(let stop):
            switch stop.reason {
            case .shutdown:
                return OutcomeResponse(
                    status: .serviceUnavailable, retryAfter: retryAfter, error: "cancelled: shutdown")
            case .keptForNextStart:
                return OutcomeResponse(status: .accepted, error: "cancelled: kept for the next start")
            case .taskCancelled, .ticketCancelled, .withdrawn, .deadlinePassed:
                return OutcomeResponse(status: clientClosedRequest, error: "cancelled: \(stop.reason)")
            }
        case .interrupted:
            return OutcomeResponse(status: .badGateway, error: "interrupted")
        case .failed(let failure):
            return OutcomeResponse(
                status: .internalServerError, error: "failed: \(String(describing: type(of: failure.error)))")
        case .cycleDetected:
            return OutcomeResponse(status: .internalServerError, error: "cycle detected")
        }
    }
}
