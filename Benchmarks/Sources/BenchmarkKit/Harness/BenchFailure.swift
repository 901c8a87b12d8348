/// A measured path gave a wrong result: the run stops and exits non-zero (a benchmark of a
/// failing path is worthless).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
