public import HTTPTypes
public import Hummingbird
public import ResponderChain

/// The request context of the order service: Hummingbird's core storage, plus the event
/// information (``RequestID``, ``AuthenticatedUser``) that ``RequestInfoMiddleware`` takes from
/// the request and every event the request sends carries.
public struct OrderRequestContext: RequestContext {
    /// Hummingbird's storage.
    public var coreContext: CoreRequestContextStorage
    /// The information every event this request sends starts with.
    public var eventInfo = EventInfo()

    /// A context for a new request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

extension HTTPField.Name {
    /// `X-Request-ID`: the request's identifier, echoed in the answer.
    public static let requestID = HTTPField.Name("X-Request-ID")!
    /// `X-User`: the authenticated user (set by a trusted proxy or an auth middleware in a real
    /// service).
    public static let user = HTTPField.Name("X-User")!
    /// `Idempotency-Key`: makes a client's retry of `POST /orders/async` not a second order.
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}

/// Takes the request's data into its context's ``OrderRequestContext/eventInfo``: the
/// `X-Request-ID` header (or a made-up identifier) as ``RequestID``, the `X-User` header as
/// ``AuthenticatedUser``; and echoes the request identifier in the answer.
public struct RequestInfoMiddleware: RouterMiddleware {
    /// The order service's context.
    public typealias Context = OrderRequestContext

    /// The middleware.
    public init() {}

    /// Fills the context's event information, then runs the route.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let requestID =
            request.headers[.requestID] ?? "req-\(String(UInt64.random(in: 1...UInt64.max), radix: 16))"
        context.eventInfo[RequestID.self] = requestID
        context.eventInfo[AuthenticatedUser.self] = request.headers[.user]
        var response = try await next(request, context)
        response.headers[.requestID] = requestID
        return response
    }
}

/// The body of every answer of the order routes.
public struct OrderReply: ResponseCodable, Equatable {
    /// The placed order's number (201 answers).
    public var order: Int?
    /// The event's identifier, in full (`5f1c09d2e4b7a836#42`, unique across processes and
    /// restarts; `EventID(debugDescription:)` reads it), in answers of routes that send or post
    /// into the chain.
    public var eventID: String?
    /// What went wrong, in the words of ``OutcomeResponse/error`` (error answers).
    public var error: String?

    /// A body.
    public init(order: Int? = nil, eventID: String? = nil, error: String? = nil) {
        self.order = order
        self.eventID = eventID
        self.error = error
    }
}

/// The order routes:
///
/// - `POST /orders` sends ``PlaceOrder`` into the chain and awaits its outcome: 201 with the
///   order's number, or the status of ``OutcomeResponse/forOutcome(_:handled:retryAfter:)``.
/// - `POST /orders/async` posts a ``PostedOrder`` (the request's user and identifier inside the
///   event: a stored post carries no event information) on the user's ordering key, and answers
///   202 with the event's identifier once `post` has returned: with a durable system, once the
///   post is stored. 503 with `Retry-After` when the system refuses the post (shutting down, at
///   its posting limit, its store failing). An `Idempotency-Key` header is the post's
///   idempotency key: a retry with the same key answers 202 with the first post's identifier
///   and posts nothing.
/// - `POST /orders/direct` places the order without the chain, with the same answers, to measure
///   what the chain costs.
/// - `GET /orders/booked` lists the orders the book placed and how many posts the chain still
///   holds (`{"orders": [...], "outstanding": 0, "recovered": 0}`).
///
/// Each `POST` takes a JSON body `{"sku": "A-1", "quantity": 1}` and needs an `X-User` header
/// (401 without one).
public struct OrderRoutes: Sendable {
    /// The chain's root.
    public let book: OrderBook
    /// The deadline of each awaited send (`nil`: none).
    public let sendTimeout: Duration?
    /// Seconds for `Retry-After` on a 503.
    public let retryAfter: Int
    /// How many posts of an earlier run the service delivers again (`GET /orders/booked` says it).
    public let recoveredPosts: Int

    /// Routes into `book`'s chain.
    public init(book: OrderBook, sendTimeout: Duration?, retryAfter: Int, recoveredPosts: Int = 0) {
        self.book = book
        self.sendTimeout = sendTimeout
        self.retryAfter = retryAfter
        self.recoveredPosts = recoveredPosts
    }

    /// Adds the routes to `router`.
    public func add(to router: Router<OrderRequestContext>) {
        let orders = router.group("orders")
        orders.post { request, context in
            let order = try await Self.order(from: request, context: context)
            let outcome = await book.send(
                order, options: SendOptions(timeout: sendTimeout, info: context.eventInfo))
            return answer(outcome, created: outcome.info[OrderNumber.self])
        }
        orders.post("async") { request, context in
            let order = try await Self.order(from: request, context: context)
            let user = context.eventInfo[AuthenticatedUser.self]
            let posted = PostedOrder(
                sku: order.sku, quantity: order.quantity, user: user,
                requestID: context.eventInfo[RequestID.self])
            let ticket = await book.post(
                posted, key: user.map { EventSystem.OrderingKey("user-\($0)") },
                idempotencyKey: request.headers[.idempotencyKey])
            if let outcome = ticket.finishedOutcome, case .rejected(let rejection) = outcome {
                // A retry of an accepted post: the first one's identifier, nothing posted again.
                if case .duplicate(let first, _) = rejection.reason {
                    return EditedResponse(status: .accepted, response: OrderReply(eventID: "\(first)"))
                }
                return answer(outcome, created: nil)
            }
            return EditedResponse(
                status: .accepted, response: OrderReply(eventID: ticket.eventID.debugDescription))
        }
        orders.get("booked") { _, _ in
            BookedReply(
                orders: try await book.placedOrdersByNumber(), outstanding: book.eventSystem.outstandingPosts,
                recovered: recoveredPosts)
        }
        orders.post("direct") { request, context in
            let order = try await Self.order(from: request, context: context)
            do {
                let number = try await book.place(
                    order, user: context.eventInfo[AuthenticatedUser.self],
                    requestID: context.eventInfo[RequestID.self])
                guard let number else {
                    return EditedResponse(
                        status: .unprocessableContent, response: OrderReply(error: "unhandled"))
                }
                return EditedResponse(status: .created, response: OrderReply(order: number))
            } catch {
                return EditedResponse(
                    status: .internalServerError,
                    response: OrderReply(error: "failed: \(String(describing: type(of: error)))"))
            }
        }
    }

    /// The answer to `outcome`: its status and `Retry-After` by the table, the order's number
    /// when it was created.
    private func answer(_ outcome: Outcome, created number: Int?) -> EditedResponse<OrderReply> {
        let mapped = OutcomeResponse.forOutcome(outcome, handled: .created, retryAfter: retryAfter)
        var headers = HTTPFields()
        if let seconds = mapped.retryAfter { headers[.retryAfter] = "\(seconds)" }
        return EditedResponse(
            status: mapped.status, headers: headers,
            response: OrderReply(
                order: number, eventID: outcome.eventID.debugDescription, error: mapped.error))
    }

    /// The order in the request's body, from an authenticated user.
    private static func order(from request: Request, context: OrderRequestContext) async throws -> PlaceOrder
    {
        guard context.eventInfo[AuthenticatedUser.self] != nil else {
            throw HTTPError(.unauthorized, message: "an X-User header is required")
        }
        let order = try await request.decode(as: PlaceOrder.self, context: context)
        guard order.quantity >= 1 else {
            throw HTTPError(.badRequest, message: "quantity must be at least 1")
        }
        return order
    }
}
