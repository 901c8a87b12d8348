extension Duration {
    /// The duration in whole nanoseconds, saturated at `Int64`'s bounds (some 292 years either
    /// way), so that no duration, however long, traps on the way to the wire.
    var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !sumOverflow else { return seconds < 0 ? .min : .max }
        return total
    }
}
