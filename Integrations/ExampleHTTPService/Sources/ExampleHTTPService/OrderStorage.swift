public import ResponderChainSQLite

/// Where an ``OrderService`` keeps the orders posted to it (`POST /orders/async`).
///
/// ```swift
/// var configuration = OrderServiceConfiguration()
/// configuration.storage = .sqlite(path: "orders.sqlite")
/// // or from the environment: ORDERS_STORAGE=sqlite ORDERS_SQLITE_PATH=orders.sqlite
/// configuration.storage = .postgres(PostgresOrderStorage(url: "postgres://orders@db:5432/orders"))
/// // or: ORDERS_STORAGE=postgres ORDERS_POSTGRES_URL=postgres://orders@db:5432/orders
/// configuration.storage = try OrderStorage(environment: ProcessInfo.processInfo.environment)
/// ```
public enum OrderStorage: Hashable, Sendable {
    /// In memory (the default): a post is accepted once it is queued, and the book keeps its
    /// orders in the actor; nothing survives the process.
    case memory
    /// In the SQLite file at `path` (`SQLitePostStore`): a post is accepted, and answered 202,
    /// once the file holds it; the book keeps its stock and orders in the same file, each order
    /// booked through the store's inbox; at start the posts of an earlier run that had not
    /// finished are delivered again before the service listens.
    case sqlite(path: String, durability: SQLitePostStore.Durability = .processCrash)
    /// In a PostgreSQL database (`PostgresPostStore`) that several instances of the service
    /// share: a post is accepted, and answered 202, once the database holds it; any instance
    /// delivers it (each ordering key held by one at a time, under a lease), and the book keeps
    /// its stock and orders in the same database, each order booked through the store's fenced
    /// inbox. An instance that dies leaves its keys to the others once its lease expires.
    case postgres(PostgresOrderStorage)

    /// The storage named by `ORDERS_STORAGE` in `environment`: `memory` (or unset); `sqlite`,
    /// whose file is `ORDERS_SQLITE_PATH` (`orders.sqlite` when unset) and whose durability is
    /// `ORDERS_SQLITE_DURABILITY`: `process-crash` (or unset) or `power-loss`; or `postgres`, see
    /// ``PostgresOrderStorage/init(environment:)``.
    ///
    /// - Throws: ``OrderStorageError`` for a value it does not know.
    public init(environment: [String: String]) throws(OrderStorageError) {
        switch environment["ORDERS_STORAGE"] ?? "memory" {
        case "memory":
            self = .memory
        case "sqlite":
            let durability: SQLitePostStore.Durability
            switch environment["ORDERS_SQLITE_DURABILITY"] ?? "process-crash" {
            case "process-crash": durability = .processCrash
            case "power-loss": durability = .powerLoss
            case let other: throw .unknownValue(other, of: "ORDERS_SQLITE_DURABILITY")
            }
            let path = environment["ORDERS_SQLITE_PATH"] ?? "orders.sqlite"
            guard !path.isEmpty else { throw .unknownValue(path, of: "ORDERS_SQLITE_PATH") }
            self = .sqlite(path: path, durability: durability)
        case "postgres":
            self = .postgres(try PostgresOrderStorage(environment: environment))
        case let other:
            throw .unknownValue(other, of: "ORDERS_STORAGE")
        }
    }
}
