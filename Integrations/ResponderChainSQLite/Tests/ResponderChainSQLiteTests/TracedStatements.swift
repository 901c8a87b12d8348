import Synchronization

/// The SQL a connection ran, as GRDB's trace reports it (for tests of what a commit runs).
final class TracedStatements: Sendable {
    private let statements = Mutex<[String]>([])

    /// Records one statement.
    func append(_ statement: String) { statements.withLock { $0.append(statement) } }

    /// Every statement so far, in order.
    var all: [String] { statements.withLock { $0 } }
}
