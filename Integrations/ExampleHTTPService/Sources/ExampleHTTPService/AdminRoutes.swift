public import Hummingbird
public import ResponderChain

/// The order service's admin routes, behind a bearer token: its stored dead letters, and their
/// redrive.
///
/// - `GET /admin/dead-letters` lists the dead letters the chain's store keeps, oldest first
///   (``DeadLetterReply``), filtered by the query's `key`, `outcome` (`failed`, `unhandled`, …),
///   `event` (the name the event is stored under, as ``OrderBook/storedEvents`` registers it),
///   `minAge` (seconds) and `limit` (100).
/// - `POST /admin/dead-letters/redrive` sends those the same filters match again, at most
///   `rate` a second (500), and answers how many (``RedriveReply``); each keeps its event
///   identifier, so an order booked before is not booked again.
///
/// A request without `Authorization: Bearer <token>` naming the configured token gets 401; a
/// filter that does not read gets 400. A service that keeps its posts in memory keeps no dead
/// letters: the list is empty.
///
/// ```sh
/// curl -H "Authorization: Bearer $ORDERS_ADMIN_TOKEN" 'localhost:8080/admin/dead-letters?outcome=failed'
/// curl -X POST -H "Authorization: Bearer $ORDERS_ADMIN_TOKEN" 'localhost:8080/admin/dead-letters/redrive?key=user-alice'
/// ```
public struct AdminRoutes: Sendable {
    /// The chain's system, whose store keeps the dead letters.
    public let system: EventSystem
    /// The token a request must carry.
    public let token: String

    /// Admin routes for `system`'s dead letters, behind `token`.
    public init(system: EventSystem, token: String) {
        self.system = system
        self.token = token
    }

    /// Adds the routes to `router`.
    public func add(to router: Router<OrderRequestContext>) {
        let admin = router.group("admin").add(middleware: BearerTokenMiddleware(token: token))
        admin.get("dead-letters") { request, _ in
            let query = try Self.query(from: request)
            let letters = try await system.storedDeadLetters(matching: query)
            return DeadLetterReply(letters: letters.map(DeadLetterReply.Letter.init))
        }
        admin.post("dead-letters/redrive") { request, _ in
            let query = try Self.query(from: request)
            let text = request.uri.queryParameters.get("rate") ?? "500"
            guard let rate = Int(text), rate > 0 else {
                throw HTTPError(.badRequest, message: "rate must be a positive number")
            }
            return RedriveReply(
                redriven: try await system.redriveDeadLetters(matching: query, perSecond: rate))
        }
    }

    /// The dead-letter query the request's parameters describe.
    static func query(from request: Request) throws -> EventSystem.DeadLetterQuery {
        let parameters = request.uri.queryParameters
        var query = EventSystem.DeadLetterQuery()
        if let key = parameters.get("key") { query.keys = [EventSystem.OrderingKey(key)] }
        if let event = parameters.get("event") { query.eventNames = [event] }
        if let outcome = parameters.get("outcome") {
            guard let kind = Outcome.Kind(rawValue: outcome) else {
                throw HTTPError(.badRequest, message: "unknown outcome \(outcome)")
            }
            query.outcomes = [kind]
        }
        if let text = parameters.get("minAge") {
            guard let seconds = Int(text), seconds >= 0 else {
                throw HTTPError(.badRequest, message: "minAge must be a number of seconds")
            }
            query.minimumAge = .seconds(seconds)
        }
        if let text = parameters.get("limit") {
            guard let limit = Int(text), limit > 0 else {
                throw HTTPError(.badRequest, message: "limit must be a positive number")
            }
            query.limit = limit
        }
        return query
    }
}

/// Lets a request through only with `Authorization: Bearer <token>`; 401 otherwise.
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = OrderRequestContext
    let token: String

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.headers[.authorization] == "Bearer \(token)" else {
            throw HTTPError(.unauthorized, message: "admin routes need the admin token")
        }
        return try await next(request, context)
    }
}

/// The answer of `GET /admin/dead-letters`.
public struct DeadLetterReply: ResponseCodable, Equatable {
    /// One dead letter.
    public struct Letter: Codable, Equatable, Sendable {
        /// Its event's identifier, in full.
        public var eventID: String
        /// Its ordering key.
        public var key: String
        /// Its event's type (or, for an event this binary cannot read, the name it is stored
        /// under).
        public var eventType: String
        /// Its last outcome's kind.
        public var outcome: String
        /// Its last outcome, in words.
        public var description: String
        /// How many attempts failed before the last.
        public var failedAttempts: Int
        /// Seconds since it ended.
        public var ageSeconds: Double

        init(_ letter: EventSystem.StoredDeadLetter) {
            eventID = letter.post.id.debugDescription
            key = letter.post.key.name
            switch letter.post.payload {
            case .event(let event): eventType = event.traceName
            case .undecodable(let undecodable): eventType = undecodable.typeName
            }
            outcome = letter.outcome.kind.rawValue
            description = letter.outcome.description
            failedAttempts = letter.post.failedAttempts.count
            let (seconds, attoseconds) = letter.age.components
            ageSeconds = Double(seconds) + Double(attoseconds) / 1e18
        }
    }

    /// The dead letters, oldest first.
    public var letters: [Letter]
}

/// The answer of `POST /admin/dead-letters/redrive`.
public struct RedriveReply: ResponseCodable, Equatable {
    /// How many dead letters were sent again.
    public var redriven: Int
}
