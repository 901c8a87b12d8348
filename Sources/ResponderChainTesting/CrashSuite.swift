/// The crash suite a durable store runs to show that crashes lose nothing accepted: a child
/// process posts and handles work on the store and is killed with SIGKILL at each
/// ``CrashPoint`` in turn, run after run over one database, and a last, clean run handles what
/// is left. Then every accepted post's effect happened once, in its key's order, and every
/// effect is a stored post's.
///
/// The suite's pieces are store-agnostic; a store package brings a child executable and a
/// test. The child parses its ``Run`` from its command line, wraps its store in a
/// ``CrashingPostStore`` with a ``CrashTrigger``, posts ``Run/post(from:)``'s batch of
/// ``Work``, and applies each effect through the store's inbox, one row per work in an
/// `effect` table, calling ``CrashTrigger/passHandler(of:)`` first. The test starts the child
/// for each of ``runs``, records each run's ``Output`` in a ``Tally``, reads the effects and
/// the posts from the database, and calls ``Tally/check(effects:posts:sourceLocation:)``:
///
/// ```swift
/// let suite = CrashSuite(seed: 39)
/// var tally = CrashSuite.Tally()
/// for run in suite.runs {
///     let output = try await child.run([database] + run.arguments)
///     tally.record(output, of: run)
/// }
/// let (effects, posts) = try read(database)
/// print(tally.check(effects: effects, posts: posts))
/// ```
public struct CrashSuite: Sendable {
    /// How many runs are killed (the clean run comes after them).
    public let kills: Int
    /// How many posts each run makes.
    public let postsPerRun: Int
    /// Decides each run's crash occurrence and interleaving, reproducibly.
    public let seed: UInt64

    /// How many ordering keys the work is posted on (`key-0` to `key-3`).
    public static let keys = 4

    /// A suite of `kills` killed runs and a clean one, each making `postsPerRun` posts.
    public init(kills: Int = 50, postsPerRun: Int = 40, seed: UInt64) {
        self.kills = kills
        self.postsPerRun = postsPerRun
        self.seed = seed
    }

    /// The runs, in order: run *n* < ``kills`` crashes at `CrashPoint.allCases[n % 5]`, at an
    /// occurrence the seed picks between 1 and ``postsPerRun``; the last is clean. Each run
    /// posts the next ``postsPerRun`` sequence numbers.
    public var runs: [Run] {
        var random = SplitMix64(seed: seed)
        return (0...kills).map { number in
            let clean = number == kills
            let occurrence = Int.random(in: 1...postsPerRun, using: &random)
            return Run(
                number: number,
                point: clean ? nil : CrashPoint.allCases[number % CrashPoint.allCases.count],
                occurrence: occurrence,
                seqs: (number * postsPerRun)..<((number + 1) * postsPerRun),
                seed: random.next() % 1000)
        }
    }
}
