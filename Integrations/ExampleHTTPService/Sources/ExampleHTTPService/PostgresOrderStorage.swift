internal import Foundation
public import PostgresNIO

/// The settings of ``OrderStorage/postgres(_:)``: the database, and this instance's lease.
///
/// ```swift
/// var storage = PostgresOrderStorage(url: "postgres://orders:secret@db.internal:5432/orders")
/// storage.lease = .seconds(10)   // another instance takes a dead one's orders after 10 s
/// configuration.storage = .postgres(storage)
/// ```
public struct PostgresOrderStorage: Hashable, Sendable {
    /// `postgres://user[:password]@host[:port]/database` (TLS off: a sidecar or a private
    /// network; see PostgresNIO's `PostgresClient.Configuration` for TLS).
    public var url: String
    /// How long an ordering key stays this instance's without a heartbeat: the time another
    /// instance waits before delivering the orders of an instance that died.
    public var lease: Duration = .seconds(30)
    /// This instance's name among the consumers of the database; unique by default (host,
    /// process, a random part).
    public var consumer: String?
    /// How often the store's gauges (queue depth, oldest order's age) are sampled.
    public var metricsInterval: Duration = .seconds(5)

    /// The database at `url`, with these settings.
    public init(
        url: String, lease: Duration = .seconds(30), consumer: String? = nil,
        metricsInterval: Duration = .seconds(5)
    ) {
        self.url = url
        self.lease = lease
        self.consumer = consumer
        self.metricsInterval = metricsInterval
    }

    /// The settings in `environment`: `ORDERS_POSTGRES_URL` (required),
    /// `ORDERS_POSTGRES_LEASE_MS` (30000 when unset), `ORDERS_POSTGRES_CONSUMER` (unique when
    /// unset) and `ORDERS_POSTGRES_METRICS_INTERVAL_MS` (5000 when unset).
    ///
    /// - Throws: ``OrderStorageError`` for a missing URL or a value that is not a positive number.
    public init(environment: [String: String]) throws(OrderStorageError) {
        guard let url = environment["ORDERS_POSTGRES_URL"], !url.isEmpty else {
            throw .missingValue(of: "ORDERS_POSTGRES_URL")
        }
        guard (try? Self.configuration(url: url)) != nil else {
            throw .unknownValue(url, of: "ORDERS_POSTGRES_URL")
        }
        self.url = url
        func milliseconds(_ variable: String) throws(OrderStorageError) -> Duration? {
            guard let text = environment[variable] else { return nil }
            guard let value = Int(text), value > 0 else { throw .unknownValue(text, of: variable) }
            return .milliseconds(value)
        }
        if let lease = try milliseconds("ORDERS_POSTGRES_LEASE_MS") { self.lease = lease }
        if let interval = try milliseconds("ORDERS_POSTGRES_METRICS_INTERVAL_MS") {
            metricsInterval = interval
        }
        consumer = environment["ORDERS_POSTGRES_CONSUMER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The client configuration for ``url``.
    ///
    /// - Throws: ``OrderStorageError/unknownValue(_:of:)`` for a URL that is not
    ///   `postgres://user[:password]@host[:port]/database`.
    public func configuration() throws(OrderStorageError) -> PostgresClient.Configuration {
        try Self.configuration(url: url)
    }

    private static func configuration(url: String) throws(OrderStorageError) -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url),
            components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, !host.isEmpty, let user = components.user
        else { throw .unknownValue(url, of: "ORDERS_POSTGRES_URL") }
        let database = String(components.path.drop { $0 == "/" })
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? user : database, tls: .disable)
    }
}
