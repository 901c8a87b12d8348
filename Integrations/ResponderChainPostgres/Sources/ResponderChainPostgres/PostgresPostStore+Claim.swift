public import ResponderChain
internal import Synchronization
internal import Logging
internal import PostgresNIO

extension PostgresPostStore {
    /// Claims up to `limit` posts, the oldest unfinished posts of keys that have no live lease,
    /// each with its key's new lease.
    ///
    /// One statement, in its own transaction (one round trip): it reads the unfinished posts in
    /// post order (the index of unfinished posts, as a plain queue's claim does), keeping those
    /// whose key has no live lease, until it has `limit`; a key's first post so read is its
    /// oldest unfinished one, so each key's posts come as a prefix, in order. It locks their keys
    /// `FOR UPDATE SKIP LOCKED` (consumers claiming at once skip each other's keys instead of
    /// waiting; the posts of a key another claim locked are left for a later claim), and gives
    /// each key a new fencing token from the database's sequence, this consumer as its owner, a
    /// lease until the database's `now()` plus ``lease``, and its mark of the highest post
    /// claimed. A key whose token changed since the statement read its posts (another consumer
    /// claimed it meanwhile, and may have finished those posts and released it) is left for a
    /// later claim: its posts as read may be finished already. A post at or below its key's mark
    /// was claimed before (a redelivery), and a key whose expired lease another consumer held is a
    /// takeover: both go to the store's metrics.
    public func claim(limit: Int) async throws -> [EventSystem.StoredPost] {
        guard limit > 0 else { return [] }
        let consumer = self.consumer
        let leaseMicros = lease.microseconds
        // Tests only: a sleep between reading the posts and locking their keys.
        let pause =
            state.withLock { $0.claimPause }.map {
                " AND (SELECT true FROM pg_sleep(\(Double($0.milliseconds) / 1000)))"
            } ?? ""
        // A key with a post too new for this consumer waits for a newer one (rolling deploys).
        // The keys to leave are found once per claim, through the index of unfinished posts by
        // type and version (none, almost always), not per post scanned: under a transaction
        // left open, a key's index entries pile up and a per-post probe slowed every claim.
        let leaving = newerSchemaVersions == .leaveForNewerReader
        let (names, newest) = (readNames, readNewest)
        let claimed = try await onConnection("claim up to \(limit) posts") { connection in
            var claimed: [(row: PostRow, token: Int64)] = []
            var counts = ClaimCounts()
            var takenOver = Set<String>()
            for try await row in try await connection.query(
                """
                WITH scan AS (
                    SELECT p.ordering_key AS key, p.seq, k.token AS seen_token FROM responderchain_posts p
                        JOIN responderchain_keys k ON k.key = p.ordering_key
                    WHERE p.finished_at IS NULL AND (k.owner IS NULL OR k.lease_until < now())
                        AND p.ordering_key <> ALL(ARRAY(
                            SELECT n.ordering_key
                            FROM unnest(\(names)::text[], \(newest)::bigint[]) AS r(name, newest)
                                JOIN responderchain_posts n
                                    ON n.type_name = r.name AND n.schema_version > r.newest
                            WHERE \(leaving) AND n.finished_at IS NULL))
                    ORDER BY p.seq LIMIT \(limit)
                ), picked AS (
                    SELECT k.key, k.owner, k.claimed_through FROM responderchain_keys k
                    WHERE k.key = ANY(ARRAY(SELECT DISTINCT key FROM scan))
                        AND (k.owner IS NULL OR k.lease_until < now())
                        AND (k.key, k.token) IN (SELECT key, seen_token FROM scan)\(unescaped: pause)
                    FOR UPDATE OF k SKIP LOCKED
                ), leased AS (
                    UPDATE responderchain_keys k SET owner = \(consumer),
                        token = nextval('responderchain_lease_token'),
                        lease_until = now() + \(leaseMicros) * interval '1 microsecond',
                        claimed_through = greatest(k.claimed_through, (SELECT max(p.seq)
                            FROM responderchain_posts p WHERE p.ordering_key = k.key AND p.finished_at IS NULL
                                AND p.seq <= (SELECT max(seq) FROM scan)))
                    FROM picked
                    WHERE k.key = picked.key
                    RETURNING k.key, k.token, picked.owner AS previous_owner,
                        picked.claimed_through AS previous_through
                )
                SELECT \(unescaped: PostRow.columns(of: "p")), leased.token AS lease_token,
                    (p.seq <= leased.previous_through) AS redelivered,
                    (leased.previous_owner IS NOT NULL AND leased.previous_owner <> \(consumer)) AS taken_over
                FROM leased JOIN responderchain_posts p ON p.ordering_key = leased.key
                WHERE p.finished_at IS NULL AND p.seq <= (SELECT max(seq) FROM scan)
                ORDER BY p.seq
                """, logger: self.logger)
            {
                let post = try PostRow(row)
                claimed.append((post, try PostRow.leaseToken(of: row, seq: post.seq)))
                let (redelivered, wasTakenOver) = try PostRow.claimFacts(of: row, seq: post.seq)
                if redelivered { counts.redeliveries += 1 }
                if wasTakenOver { takenOver.insert(post.key) }
            }
            counts.takeovers = takenOver.count
            return (claimed, counts)
        }
        recorder?.recordClaim(
            keys: Set(claimed.0.map(\.row.key)).count, posts: claimed.0.count, counts: claimed.1)
        let posts = claimed.0
        guard !posts.isEmpty else { return [] }
        state.withLock { state in
            for (row, token) in posts { state.held[row.key] = token }
        }
        let now = try await wallNow()
        return posts.map { row, token in
            row.post(events: events, now: now, lease: EventSystem.Lease(key: .init(row.key), token: token))
        }
    }

    /// Ends `leases`: their keys lose their owner (another consumer may claim them at once), the
    /// store stops renewing them, and the listening consumers hear of keys that still have
    /// unfinished posts. A lease that is no longer its key's current one changes nothing. A
    /// release that fails (the server restarting, no connection free, a row locked past
    /// ``lockTimeout``) is tried again while ``run()`` runs, so that the keys do not wait for
    /// their leases to expire.
    public func release(_ leases: [EventSystem.Lease]) async throws {
        guard !leases.isEmpty else { return }
        state.withLock { state in
            for lease in leases where state.held[lease.key.name] == lease.token {
                state.held[lease.key.name] = nil
            }
        }
        do {
            try await releaseRows(of: leases)
        } catch {
            releaseLater(leases)
            throw error
        }
    }

    /// Ends `leases` in the database.
    func releaseRows(of leases: [EventSystem.Lease]) async throws {
        let keys = leases.map(\.key.name)
        let tokens = leases.map(\.token)
        // One statement, in a transaction that waits at most `lockTimeout` for a key's row; the
        // notification, if any, is sent at its commit.
        try await transaction("release \(leases.count) leases") { connection in
            for try await _ in try await connection.query(
                """
                WITH locked AS (
                    SELECT key FROM responderchain_keys WHERE key = ANY(\(keys)) ORDER BY key FOR NO KEY UPDATE
                ), released AS (
                    UPDATE responderchain_keys k SET owner = NULL, lease_until = NULL
                    FROM unnest(\(keys)::text[], \(tokens)::bigint[]) AS r(key, token), locked
                    WHERE k.key = r.key AND k.token = r.token AND locked.key = k.key
                    RETURNING EXISTS (SELECT 1 FROM responderchain_posts p
                        WHERE p.ordering_key = k.key AND p.finished_at IS NULL) AS pending
                )
                SELECT pg_notify(\(Self.channel), 'p') FROM (SELECT 1 FROM released WHERE pending LIMIT 1) AS any_pending
                """, logger: self.logger)
            {}
        }
    }

    /// Renews every lease this store holds until the database's `now()` plus ``lease``; logs
    /// the ones it did not renew: no longer current (another consumer took the key: this
    /// consumer was not heard from for a whole lease), or their key's row locked by another
    /// transaction just then (`SKIP LOCKED`: a foreign transaction holding one key's row never
    /// holds back the renewal of the others; that key is renewed at a later beat).
    func renewLeases() async throws {
        let held = state.withLock { $0.held }
        guard !held.isEmpty else { return }
        let keys = Array(held.keys)
        let tokens = keys.map { held[$0] ?? 0 }
        let consumer = self.consumer
        let leaseMicros = lease.microseconds
        let operation = "renew \(keys.count) leases"
        let (renewed, busy) = try await run(operation) {
            try await self.withConnection(operation) { connection in
                var renewed = Set<String>()
                var busy = Set<String>()
                // Renewed: the key's lease is still this consumer's and its row was free. Busy:
                // still this consumer's, but its row was locked by another transaction just then
                // (renewed at a later beat). Anything else is lost.
                for try await (key, wasRenewed) in try await connection.query(
                    """
                    WITH held AS (
                        SELECT * FROM unnest(\(keys)::text[], \(tokens)::bigint[]) AS h(key, token)
                    ), locked AS (
                        SELECT key FROM responderchain_keys WHERE key = ANY(\(keys)) ORDER BY key
                        FOR NO KEY UPDATE SKIP LOCKED
                    ), renewed AS (
                        UPDATE responderchain_keys k SET lease_until = now() + \(leaseMicros) * interval '1 microsecond'
                        FROM held h, locked
                        WHERE k.key = h.key AND k.token = h.token AND k.owner = \(consumer) AND locked.key = k.key
                        RETURNING k.key
                    )
                    SELECT key, true FROM renewed
                    UNION ALL
                    SELECT h.key, false FROM held h JOIN responderchain_keys k ON k.key = h.key
                    WHERE h.key NOT IN (SELECT key FROM locked) AND k.token = h.token AND k.owner = \(consumer)
                    """, logger: self.logger
                ).decode((String, Bool).self) {
                    if wasRenewed { renewed.insert(key) } else { busy.insert(key) }
                }
                return (renewed, busy)
            }
        }
        if !busy.isEmpty {
            logger.debug(
                "leases not renewed at this beat: another transaction holds their keys' rows",
                metadata: ["keys": "\(busy.sorted())"])
        }
        let lost = keys.filter { !renewed.contains($0) && !busy.contains($0) }
        if !lost.isEmpty {
            // Still held here: a finish or inbox write under them is refused by the database's
            // token, and the post office releases them once their posts end.
            let (stillHeld, nowHeld) = state.withLock { state in
                (lost.filter { state.held[$0] != nil }, state.held)
            }
            recorder?.recordLost(held.filter { stillHeld.contains($0.key) }, held: nowHeld)
            if !stillHeld.isEmpty {
                logger.warning(
                    "leases lost: another consumer claimed these keys after their leases expired",
                    metadata: ["keys": "\(stillHeld.sorted())"])
            }
        }
    }
}
