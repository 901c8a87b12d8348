public import ResponderChain
public import Testing

/// The checks every `EventSystem.SharedPostStore` must pass beyond those of
/// ``PostStoreConformance``, one test case each: claims, leases, fencing, release and signals,
/// seen from two consumers of the same storage.
///
/// ```swift
/// @Test(arguments: SharedPostStoreConformance.checks)
/// func keepsTheSharedContract(_ check: SharedPostStoreConformance.Check) async throws {
///     try await check.run {
///         let store = EventSystem.InMemoryPostStore()
///         return SharedPostStoreConformance.Subject(first: store, second: store) { store.expireLeases() }
///     }
/// }
/// ```
///
/// The checks store ``PostStoreConformance/Sample`` events, as the store contract's do.
public enum SharedPostStoreConformance {
    /// Two consumers of one new, empty storage, and how to make their leases run out.
    public struct Subject: Sendable {
        /// The first consumer's store.
        public let first: any EventSystem.SharedPostStore
        /// The second consumer's store, over the same storage (another connection, another
        /// process's store); may be the same object for a store whose consumers share one.
        public let second: any EventSystem.SharedPostStore
        /// Makes every lease held now run out, as if its consumer had stopped renewing it (a
        /// store on a server waits out a short lease; one in memory ends them).
        public let expireLeases: @Sendable () async throws -> Void

        /// Two consumers of one storage.
        public init(
            first: any EventSystem.SharedPostStore, second: any EventSystem.SharedPostStore,
            expireLeases: @escaping @Sendable () async throws -> Void
        ) {
            self.first = first
            self.second = second
            self.expireLeases = expireLeases
        }
    }

    /// One check of the shared store contract, named for what it shows.
    public struct Check: Sendable, CustomStringConvertible, CustomTestStringConvertible {
        /// What the check shows, as a sentence.
        public let description: String
        private let body: @Sendable (Subject) async throws -> Void

        fileprivate init(_ description: String, _ body: @escaping @Sendable (Subject) async throws -> Void) {
            self.description = description
            self.body = body
        }

        /// The sentence, as a test case's name.
        public var testDescription: String { description }

        /// Runs the check on a new subject made by `makeSubject`, recording a test issue for each
        /// broken promise.
        public func run(_ makeSubject: () async throws -> Subject) async throws {
            try await body(makeSubject())
        }
    }

    private typealias Conformance = PostStoreConformance

    /// Every check.
    public static let checks: [Check] = [
        Check("a claim leases whole keys, gives their posts oldest first under one lease, and holds them") {
            subject in
            let posts = [
                Conformance.post(0, key: "a"), Conformance.post(1, key: "b"), Conformance.post(2, key: "a"),
            ]
            _ = try await subject.first.store(posts)
            let claimed = try await subject.first.claim(limit: 10)
            #expect(claimed.map(\.id) == posts.map(\.id))
            let leases = Dictionary(grouping: claimed.compactMap(\.lease), by: \.key)
            #expect(leases["a"]?.count == 2 && Set(leases["a"] ?? []).count == 1)
            #expect(leases["b"]?.count == 1)
            // Held: the other consumer gets nothing of them.
            #expect(try await subject.second.claim(limit: 10).isEmpty)
        },
        Check("a claim takes no more posts than its limit, and the rest of a key stays with its lease") {
            subject in
            let posts = (0..<5).map { Conformance.post($0, key: "a") }
            _ = try await subject.first.store(posts)
            let claimed = try await subject.first.claim(limit: 2)
            #expect(claimed.map(\.id) == Array(posts.prefix(2)).map(\.id))
            #expect(try await subject.second.claim(limit: 10).isEmpty)
        },
        Check("different keys go to different consumers") { subject in
            _ = try await subject.first.store([Conformance.post(0, key: "a")])
            let first = try await subject.first.claim(limit: 10)
            _ = try await subject.first.store([Conformance.post(1, key: "b")])
            let second = try await subject.second.claim(limit: 10)
            #expect(first.map(\.key) == ["a"])
            #expect(second.map(\.key) == ["b"])
        },
        Check("a released key is claimable at once, under a larger token") { subject in
            let posts = [Conformance.post(0, key: "a"), Conformance.post(1, key: "a")]
            _ = try await subject.first.store(posts)
            let claimed = try await subject.first.claim(limit: 10)
            let lease = try #require(claimed.first?.lease)
            try await subject.first.finish([
                .init(id: posts[0].id, outcome: Conformance.handled, lease: lease)
            ])
            try await subject.first.release([lease])
            let next = try await subject.second.claim(limit: 10)
            #expect(next.map(\.id) == [posts[1].id])
            #expect((next.first?.lease?.token ?? .min) > lease.token)
        },
        Check("after a lease runs out the key is claimed again, and a finish under the old lease is refused")
        {
            subject in
            let post = Conformance.post(0, key: "a")
            _ = try await subject.first.store([post])
            let old = try #require(try await subject.first.claim(limit: 10).first?.lease)
            try await subject.expireLeases()
            let taken = try await subject.second.claim(limit: 10)
            let new = try #require(taken.first?.lease)
            #expect(taken.map(\.id) == [post.id])
            #expect(new.token > old.token)
            try await subject.first.finish([.init(id: post.id, outcome: Conformance.failed, lease: old)])
            #expect(try await subject.second.outcome(of: post.id) == nil)
            try await subject.second.finish([.init(id: post.id, outcome: Conformance.handled, lease: new)])
            #expect(try await subject.first.outcome(of: post.id) == Conformance.handled)
        },
        Check("finished posts are not claimed, and a key with nothing unfinished is not leased") { subject in
            let posts = [Conformance.post(0, key: "a"), Conformance.post(1, key: "b")]
            _ = try await subject.first.store(posts)
            try await subject.first.finish([.init(id: posts[0].id, outcome: Conformance.handled)])
            #expect(try await subject.second.claim(limit: 10).map(\.id) == [posts[1].id])
            #expect(try await subject.first.claim(limit: 10).isEmpty)
        },
        Check("unfinished lists every unfinished post, leased or not") { subject in
            let posts = [Conformance.post(0, key: "a"), Conformance.post(1, key: "b")]
            _ = try await subject.first.store(posts)
            _ = try await subject.first.claim(limit: 1)
            #expect(try await subject.second.unfinished().map(\.id) == posts.map(\.id))
        },
        Check("a consumer is signalled when another stores posts and when it finishes them") { subject in
            var signals = subject.second.signals().makeAsyncIterator()
            let post = Conformance.post(0, key: "a")
            _ = try await subject.first.store([post])
            #expect(await signals.next() == .posted)
            let lease = try #require(try await subject.first.claim(limit: 10).first?.lease)
            try await subject.first.finish([.init(id: post.id, outcome: Conformance.handled, lease: lease)])
            var finished: [EventID] = []
            while let signal = await signals.next() {
                if case .finished(let ids) = signal {
                    finished = ids
                    break
                }
            }
            #expect(finished == [post.id])
        },
    ]
}
