import ResponderChainTesting

/// What a run of the child does, from its command line:
/// `postgres-crash-child <host> <port> <user> <database> <lease-ms> <run> <first-seq> <count> <point|none> <occurrence> <seed>`.
struct ChildArguments: Sendable {
    /// The server's host.
    let host: String
    /// The server's port.
    let port: Int
    /// The user the child connects as (without a password).
    let username: String
    /// The database, with the store's schema or none yet.
    let database: String
    /// The store's lease.
    let lease: Duration
    /// The posts it makes and where it crashes.
    let run: CrashSuite.Run

    /// What was wrong with the command line.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws(Invalid) {
        let usage =
            "usage: postgres-crash-child <host> <port> <user> <database> <lease-ms> \(CrashSuite.Run.usage)"
        guard arguments.count > 5, let port = Int(arguments[1]), let lease = Int(arguments[4]), lease > 0
        else {
            throw Invalid(description: usage)
        }
        do {
            run = try CrashSuite.Run(parsing: arguments.dropFirst(5))
        } catch {
            throw Invalid(description: "\(error); \(usage)")
        }
        host = arguments[0]
        self.port = port
        username = arguments[2]
        database = arguments[3]
        self.lease = .milliseconds(lease)
    }
}
