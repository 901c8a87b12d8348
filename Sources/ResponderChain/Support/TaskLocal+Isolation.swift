extension TaskLocal {
    /// Binds `value` while `operation` runs, on the caller's isolation.
    ///
    /// `withValue(_:operation:)` called from a `nonisolated(nonsending)` function runs its closure
    /// on the global executor. Here the closure captures the `isolated` parameter, which isolates
    /// it to the caller, and `operation` (`nonisolated(nonsending)`) runs there too: no executor
    /// switch. Every binding the package makes around a hop, a route or a delivery goes through here.
    package func withValueKeepingIsolation<Result>(
        _ value: Value,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: nonisolated(nonsending) () async -> Result
    ) async -> Result {
        await withValue(value) {
            _ = isolation  // captured: the closure runs on `isolation`
            return await operation()
        }
    }
}
