public import ResponderChain
internal import Synchronization
internal import Logging
internal import PostgresNIO

extension PostgresPostStore {
    /// Leases up to `limit` keys that have unfinished posts and no live lease, and returns their
    /// unfinished posts, oldest first, at most `limit` in all, each with its key's new lease.
    ///
    /// One transaction: the keys are locked `FOR UPDATE SKIP LOCKED` (consumers claiming at once
    /// skip each other's keys instead of waiting), each gets a new fencing token from the
    /// database's sequence, this consumer as its owner, and a lease until the database's
    /// `now()` plus ``lease``. A key whose posts did not fit in `limit` is not leased.
    public func claim(limit: Int) async throws -> [EventSystem.StoredPost] {
        guard limit > 0 else { return [] }
        let consumer = self.consumer
        let leaseMicros = lease.microseconds
        let (rows, tokens) = try await transaction("claim up to \(limit) posts") { connection in
            var candidates: [String] = []
            for try await (key, ) in try await connection.query(
                """
                SELECT k.key FROM responderchain_keys k
                WHERE (k.owner IS NULL OR k.lease_until < now())
                    AND EXISTS (SELECT 1 FROM responderchain_posts p WHERE p.ordering_key = k.key AND p.finished_at IS NULL)
                ORDER BY (SELECT min(p.seq) FROM responderchain_posts p
                    WHERE p.ordering_key = k.key AND p.finished_at IS NULL)
                LIMIT \(limit)
                FOR UPDATE OF k SKIP LOCKED
                """, logger: self.logger
            ).decode((String,).self) {
                candidates.append(key)
            }
            guard !candidates.isEmpty else { return ([PostRow](), [String: Int64]()) }
            var rows: [PostRow] = []
            for try await row in try await connection.query(
                """
                SELECT \(unescaped: PostRow.columns) FROM responderchain_posts
                WHERE ordering_key = ANY(\(candidates)) AND finished_at IS NULL ORDER BY seq LIMIT \(limit)
                """, logger: self.logger)
            {
                rows.append(try PostRow(row))
            }
            let claimed = Array(Set(rows.map(\.key)))
            var tokens: [String: Int64] = [:]
            for try await (key, token) in try await connection.query(
                """
                UPDATE responderchain_keys SET owner = \(consumer), token = nextval('responderchain_lease_token'),
                    lease_until = now() + \(leaseMicros) * interval '1 microsecond'
                WHERE key = ANY(\(claimed)) RETURNING key, token
                """, logger: self.logger
            ).decode((String, Int64).self) {
                tokens[key] = token
            }
            return (rows, tokens)
        }
        guard !rows.isEmpty else { return [] }
        state.withLock { state in
            for (key, token) in tokens { state.held[key] = token }
        }
        let now = try await wallNow()
        return rows.map { row in
            row.post(
                events: events, now: now,
                lease: tokens[row.key].map { EventSystem.Lease(key: .init(row.key), token: $0) })
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
        try await transaction("release \(leases.count) leases") { connection in
            var pending = false
            for try await (hasPosts, ) in try await connection.query(
                """
                WITH locked AS (
                    SELECT key FROM responderchain_keys WHERE key = ANY(\(keys)) ORDER BY key FOR NO KEY UPDATE
                )
                UPDATE responderchain_keys k SET owner = NULL, lease_until = NULL
                FROM unnest(\(keys)::text[], \(tokens)::bigint[]) AS r(key, token), locked
                WHERE k.key = r.key AND k.token = r.token AND locked.key = k.key
                RETURNING EXISTS (SELECT 1 FROM responderchain_posts p
                    WHERE p.ordering_key = k.key AND p.finished_at IS NULL)
                """, logger: self.logger
            ).decode((Bool,).self) {
                pending = pending || hasPosts
            }
            if pending { try await Self.notifyPosted(on: connection, logger: self.logger) }
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
        let renewed = try await run(operation) {
            try await self.withConnection(operation) { connection in
                var renewed = Set<String>()
                for try await (key, ) in try await connection.query(
                    """
                    WITH locked AS (
                        SELECT key FROM responderchain_keys WHERE key = ANY(\(keys)) ORDER BY key
                        FOR NO KEY UPDATE SKIP LOCKED
                    )
                    UPDATE responderchain_keys k SET lease_until = now() + \(leaseMicros) * interval '1 microsecond'
                    FROM unnest(\(keys)::text[], \(tokens)::bigint[]) AS h(key, token), locked
                    WHERE k.key = h.key AND k.token = h.token AND k.owner = \(consumer) AND locked.key = k.key
                    RETURNING k.key
                    """, logger: self.logger
                ).decode((String,).self) {
                    renewed.insert(key)
                }
                return renewed
            }
        }
        let lost = keys.filter { !renewed.contains($0) }
        if !lost.isEmpty {
            // Still held here: a finish or inbox write under them is refused by the database's
            // token, and the post office releases them once their posts end.
            let stillHeld = state.withLock { state in lost.filter { state.held[$0] != nil } }
            if !stillHeld.isEmpty {
                logger.warning(
                    "leases not renewed: another consumer claimed these keys after their leases expired, or another transaction holds their rows",
                    metadata: ["keys": "\(stillHeld.sorted())"])
            }
        }
    }
}
