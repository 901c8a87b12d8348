/// The pace of a redrive as a child process reports it: its standard output's last line of the
/// form `redriven <count> in <seconds>`.
///
/// ```swift
/// let pace = try #require(RedrivePace(finished.standardOutput))
/// #expect((450...550).contains(pace.perSecond))  // 500/s ± 10 %
/// ```
public struct RedrivePace: Sendable, CustomStringConvertible {
    /// The number of dead letters redriven.
    public let count: Int
    /// The wall time the redrive took, in seconds.
    public let seconds: Double

    /// Reads the last `redriven <count> in <seconds>` line of `output`; `nil` when there is none
    /// or it is malformed.
    public init?(_ output: String) {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("redriven ") }) else {
            return nil
        }
        let words = line.split(separator: " ")
        guard words.count == 4, let count = Int(words[1]), let seconds = Double(words[3]), seconds > 0 else {
            return nil
        }
        self.count = count
        self.seconds = seconds
    }

    /// Letters a second.
    public var perSecond: Double { Double(count) / seconds }

    public var description: String { "\(count) letters in \(seconds) s (\(Int(perSecond))/s)" }
}
