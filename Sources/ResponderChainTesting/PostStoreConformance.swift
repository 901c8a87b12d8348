public import ResponderChain
public import Testing

/// The checks every `EventSystem.PostStore` must pass, one test case each: a store package runs them
/// against its own store with a parameterized test.
///
/// ```swift
/// @Test(arguments: PostStoreConformance.checks)
/// func keepsTheStoreContract(_ check: PostStoreConformance.Check) async throws {
///     try await check.run { clock in
///         PostStoreConformance.Subject(store: EventSystem.InMemoryPostStore(clock: clock))
///     }
/// }
/// ```
///
/// The checks store ``Sample`` events: a store that encodes its events registers that type
/// first. Each check gets a new, empty store measuring time on a ``ManualClock`` the check
/// advances; a store that can be opened again over what it wrote (a file) gives
/// ``Subject/reopen`` too, and the reopening check runs only then.
public enum PostStoreConformance {
    /// The event the checks store: a number and a text, `Codable` for stores that encode.
    public struct Sample: Event, Codable, Hashable {
        /// Which sample.
        public let number: Int
        /// Some text to carry.
        public let text: String

        /// A sample numbered `number`.
        public init(number: Int, text: String = "") {
            self.number = number
            self.text = text
        }
    }

    /// A store under check, and how to open its storage again.
    public struct Subject: Sendable {
        /// The new, empty store.
        public let store: any EventSystem.PostStore
        /// Opens a second store over what ``store`` wrote (as a process would after a restart),
        /// measuring time on the clock it is given; `nil` for a store whose contents live in the
        /// object itself.
        public let reopen: (@Sendable (ManualClock) async throws -> any EventSystem.PostStore)?

        /// A subject whose store can (`reopen`) or cannot be opened again.
        public init(
            store: any EventSystem.PostStore,
            reopen: (@Sendable (ManualClock) async throws -> any EventSystem.PostStore)? = nil
        ) {
            self.store = store
            self.reopen = reopen
        }
    }

    /// One check of the store contract, named for what it shows.
    public struct Check: Sendable, CustomStringConvertible, CustomTestStringConvertible {
        /// What the check shows, as a sentence.
        public let description: String
        private let body: @Sendable (Subject, ManualClock) async throws -> Void

        fileprivate init(
            _ description: String, _ body: @escaping @Sendable (Subject, ManualClock) async throws -> Void
        ) {
            self.description = description
            self.body = body
        }

        /// The sentence, as a test case's name.
        public var testDescription: String { description }

        /// Runs the check on a new subject made by `makeSubject` with a new manual clock,
        /// recording a test issue for each broken promise.
        public func run(_ makeSubject: (ManualClock) async throws -> Subject) async throws {
            let clock = ManualClock()
            try await body(makeSubject(clock), clock)
        }
    }

    /// Every check, in the order a reader would go through the contract.
    public static let checks: [Check] = [
        Check("a batch is stored in the order given, with everything its posts carry") { subject, _ in
            let posts = (0..<5).map {
                post($0, key: .init("k\($0 % 2)"), idempotencyKey: "i\($0)", trace: ["traceparent": "t\($0)"])
            }
            let acceptances = try await subject.store.store(posts)
            #expect(acceptances == Array(repeating: .stored, count: 5))
            let unfinished = try await subject.store.unfinished()
            expectSame(unfinished, posts)
        },
        Check("unfinished posts come back oldest first, across batches and keys") { subject, _ in
            let batches = [
                [post(0, key: "b"), post(1, key: "a")], [post(2, key: "a")],
                [post(3, key: "c"), post(4, key: "b")],
            ]
            for batch in batches { _ = try await subject.store.store(batch) }
            let unfinished = try await subject.store.unfinished()
            #expect(unfinished.map(\.id) == batches.flatMap { $0 }.map(\.id))
        },
        Check("a finished post is no longer unfinished, and its first outcome stays") { subject, _ in
            let posts = (0..<3).map { post($0) }
            _ = try await subject.store.store(posts)
            try await subject.store.finish([.init(id: posts[1].id, outcome: handled)])
            try await subject.store.finish([.init(id: posts[1].id, outcome: failed)])
            try await subject.store.finish([.init(id: EventID(), outcome: handled)])  // unknown: no effect
            #expect(try await subject.store.unfinished().map(\.id) == [posts[0].id, posts[2].id])
            #expect(try await subject.store.outcome(of: posts[1].id) == handled)
        },
        Check("a post's outcome is readable by its identifier once it finished") { subject, _ in
            let posts = [post(0), post(1)]
            _ = try await subject.store.store(posts)
            #expect(try await subject.store.outcome(of: posts[0].id) == nil)
            try await subject.store.finish([
                .init(id: posts[0].id, outcome: handled), .init(id: posts[1].id, outcome: failed),
            ])
            #expect(try await subject.store.outcome(of: posts[0].id) == handled)
            #expect(try await subject.store.outcome(of: posts[1].id) == failed)
            #expect(try await subject.store.outcome(of: EventID()) == nil)
        },
        Check("a post with a held idempotency key is not written: the earlier post answers for it") {
            subject, _ in
            let first = post(0, idempotencyKey: "order-17")
            _ = try await subject.store.store([first])
            let retry = post(1, idempotencyKey: "order-17")
            #expect(try await subject.store.store([retry]) == [.duplicate(of: first.id, outcome: nil)])
            try await subject.store.finish([.init(id: first.id, outcome: handled)])
            let late = post(2, idempotencyKey: "order-17")
            #expect(try await subject.store.store([late]) == [.duplicate(of: first.id, outcome: handled)])
            let twins = [post(3, idempotencyKey: "order-18"), post(4, idempotencyKey: "order-18")]
            #expect(
                try await subject.store.store(twins) == [.stored, .duplicate(of: twins[0].id, outcome: nil)])
            #expect(try await subject.store.unfinished().map(\.id) == [twins[0].id])
            #expect(try await subject.store.outcome(of: retry.id) == nil)
        },
        Check("a store opened again over the same storage still holds everything") { subject, _ in
            guard let reopen = subject.reopen else { return }
            let posts = (0..<4).map {
                post($0, key: .init("k\($0 % 2)"), idempotencyKey: "i\($0)", trace: ["traceparent": "t\($0)"])
            }
            _ = try await subject.store.store(posts)
            try await subject.store.finish([.init(id: posts[2].id, outcome: handled)])
            let reopened = try await reopen(ManualClock())
            expectSame(try await reopened.unfinished(), [posts[0], posts[1], posts[3]])
            #expect(try await reopened.outcome(of: posts[2].id) == handled)
            #expect(
                try await reopened.store([post(9, idempotencyKey: "i0")]) == [
                    .duplicate(of: posts[0].id, outcome: nil)
                ])
        },
        Check("a stored post's time left shrinks by the time that passed") { subject, clock in
            let timed = post(0, timeLeft: .seconds(10))
            let untimed = post(1)
            _ = try await subject.store.store([timed, untimed])
            await clock.advance(by: .seconds(3))
            let unfinished = try await subject.store.unfinished()
            #expect(unfinished.map(\.timeLeft) == [.seconds(7), nil])
            await clock.advance(by: .seconds(8))
            #expect(try await subject.store.unfinished().first?.timeLeft == .seconds(-1))
        },
        Check(
            "failed attempts come back with their post, oldest first, with the rest of the next attempt's wait"
        ) { subject, clock in
            let posts = [post(0), post(1)]
            _ = try await subject.store.store(posts)
            let id = posts[0].id
            try await subject.store.recordFailure(
                .init(id: id, number: 1, outcome: failed, retryAfter: .seconds(10)))
            await clock.advance(by: .seconds(4))
            var read = try await subject.store.unfinished()
            #expect(read.map(\.failedAttempts.count) == [1, 0])
            #expect(read.first?.failedAttempts == [.init(number: 1, outcome: failed, endedAgo: .seconds(4))])
            #expect(read.map(\.retryAfter) == [.seconds(6), nil])

            try await subject.store.recordFailure(
                .init(id: id, number: 2, outcome: timedOut, retryAfter: .seconds(20)))
            try await subject.store.recordFailure(
                .init(id: id, number: 2, outcome: failed, retryAfter: .seconds(1)))
            read = try await subject.store.unfinished()
            #expect(
                read.first?.failedAttempts == [
                    .init(number: 1, outcome: failed, endedAgo: .seconds(4)),
                    .init(number: 2, outcome: timedOut, endedAgo: .zero),
                ])
            #expect(read.first?.retryAfter == .seconds(20))
            await clock.advance(by: .seconds(21))
            #expect(try await subject.store.unfinished().first?.retryAfter == nil)

            if let reopen = subject.reopen {
                let reopened = try await reopen(clock)
                #expect(try await reopened.unfinished().first?.failedAttempts.map(\.number) == [1, 2])
            }
            // A finished (or unknown) post is left as it is.
            try await subject.store.finish([.init(id: id, outcome: failed)])
            try await subject.store.recordFailure(
                .init(id: id, number: 3, outcome: failed, retryAfter: .seconds(1)))
            try await subject.store.recordFailure(
                .init(id: EventID(), number: 1, outcome: failed, retryAfter: .seconds(1)))
            #expect(try await subject.store.unfinished().map(\.id) == [posts[1].id])
            #expect(try await subject.store.outcome(of: id) == failed)
        },
        Check(
            "a post finished as a dead letter is kept, read by query, redriven with its identifier, or purged"
        ) {
            subject, clock in
            let posts = (0..<5).map { post($0, key: .init("k\($0 % 2)")) }
            _ = try await subject.store.store(posts)
            try await subject.store.recordFailure(
                .init(id: posts[0].id, number: 1, outcome: failed, retryAfter: .seconds(1)))
            try await subject.store.finish([
                .init(id: posts[0].id, outcome: failed, deadLettered: true),
                .init(id: posts[1].id, outcome: handled),
                .init(id: posts[2].id, outcome: timedOut, deadLettered: true),
            ])
            await clock.advance(by: .seconds(10))
            try await subject.store.finish([.init(id: posts[3].id, outcome: failed, deadLettered: true)])
            let ids = { (letters: [EventSystem.StoredDeadLetter]) in letters.map(\.post.id) }

            let all = try await subject.store.deadLetters(matching: .all)
            #expect(ids(all) == [posts[0].id, posts[2].id, posts[3].id])
            #expect(all.map(\.outcome) == [failed, timedOut, failed])
            #expect(all.map(\.age) == [.seconds(10), .seconds(10), .zero])
            #expect(all.first?.post.key == "k0" && all.first?.post.entry == "desk")
            #expect(all.first?.post.failedAttempts.map(\.number) == [1])
            #expect(all.first.flatMap { sample($0.post) } == sample(posts[0]))
            #expect(ids(try await subject.store.deadLetters(matching: .init(keys: ["k1"]))) == [posts[3].id])
            #expect(
                ids(try await subject.store.deadLetters(matching: .init(ids: [posts[2].id, posts[1].id])))
                    == [posts[2].id])
            #expect(
                ids(try await subject.store.deadLetters(matching: .init(outcomes: [.timedOut]))) == [
                    posts[2].id
                ])
            #expect(
                ids(try await subject.store.deadLetters(matching: .init(minimumAge: .seconds(5)))).count == 2)
            #expect(
                ids(try await subject.store.deadLetters(matching: .init(maximumAge: .seconds(5)))) == [
                    posts[3].id
                ])
            #expect(
                ids(try await subject.store.deadLetters(matching: .init(after: posts[0].id, limit: 1))) == [
                    posts[2].id
                ])

            let reopened = try await subject.store.redrive([posts[3].id, posts[1].id, posts[0].id])
            #expect(reopened.map(\.id) == [posts[0].id, posts[3].id])  // post order; handled is no dead letter
            #expect(
                reopened.allSatisfy { $0.failedAttempts.isEmpty && $0.retryAfter == nil && $0.lease == nil })
            #expect(
                try await subject.store.unfinished().map(\.id) == [posts[0].id, posts[3].id, posts[4].id])
            #expect(try await subject.store.outcome(of: posts[0].id) == nil)
            #expect(ids(try await subject.store.deadLetters(matching: .all)) == [posts[2].id])
            #expect(try await subject.store.redrive([posts[0].id]).isEmpty)  // not a dead letter any more

            #expect(try await subject.store.purgeDeadLetters([posts[2].id, posts[4].id]) == 1)
            #expect(try await subject.store.deadLetters(matching: .all).isEmpty)
            #expect(try await subject.store.outcome(of: posts[2].id) == nil)
        },
        Check("a batch of 10,000 posts is stored in one call") { subject, _ in
            let posts = (0..<10_000).map { post($0, key: .init("k\($0 % 4)"), idempotencyKey: "i\($0)") }
            let acceptances = try await subject.store.store(posts)
            #expect(acceptances.count == 10_000)
            #expect(acceptances.allSatisfy { $0 == .stored })
            let unfinished = try await subject.store.unfinished()
            #expect(unfinished.map(\.id) == posts.map(\.id))
            try await subject.store.finish(posts.map { .init(id: $0.id, outcome: handled) })
            #expect(try await subject.store.unfinished().isEmpty)
        },
    ]

    static let handled = EventSystem.StoredOutcome(kind: .handled, description: "handled by desk")
    static let failed = EventSystem.StoredOutcome(kind: .failed, description: "failed: nope")
    static let timedOut = EventSystem.StoredOutcome(kind: .timedOut, description: "timed out at desk")

    static func post(
        _ number: Int, key: EventSystem.OrderingKey = "k", idempotencyKey: String? = nil,
        timeLeft: Duration? = nil,
        trace: [String: String] = [:]
    ) -> EventSystem.StoredPost {
        EventSystem.StoredPost(
            id: EventID(), key: key, entry: "desk",
            payload: .event(Sample(number: number, text: "sample \(number)")),
            idempotencyKey: idempotencyKey, timeLeft: timeLeft, traceContext: trace)
    }

    /// Expects `read` to be `written`, post for post (the time left is another check's).
    private static func expectSame(
        _ read: [EventSystem.StoredPost], _ written: [EventSystem.StoredPost],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(read.map(\.id) == written.map(\.id), sourceLocation: sourceLocation)
        for (read, written) in zip(read, written) {
            #expect(read.key == written.key, sourceLocation: sourceLocation)
            #expect(read.entry == written.entry, sourceLocation: sourceLocation)
            #expect(read.idempotencyKey == written.idempotencyKey, sourceLocation: sourceLocation)
            #expect(read.traceContext == written.traceContext, sourceLocation: sourceLocation)
            #expect(sample(read) == sample(written), sourceLocation: sourceLocation)
        }
    }

    private static func sample(_ post: EventSystem.StoredPost) -> Sample? {
        guard case .event(let event) = post.payload else { return nil }
        return event as? Sample
    }
}
