extension PrintingTracer {
    /// Renders the trace of one event as readable lines: a header, one line per hop (number,
    /// responder, isolation, decision, information added, time spent), then how it ended. A capture
    /// hop's responder is marked `↓` (see ``EventContext/Phase``).
    ///
    /// ```
    /// #7 ItemAdded from LineItem
    ///   1  LineItem  actor      pass
    ///   2  Order     actor      handledAndContinue  +OrderID=42       3.1µs
    ///   3  Session   MainActor  handled             +SessionID=s-1    1.2µs
    ///   = handled by Order, Session after 3 hops
    /// ```
    ///
    /// The printer only renders; you choose where the lines go (see ``PrintingTracer``).
    public struct Printer: Sendable {
        /// Whether hop lines end with the time the handlers took, and a posted event's header says how
        /// long it was queued (`(queued 12.0µs)`, or just `(posted)` without durations). Turn it off
        /// for output that is the same on every run (tests, documentation).
        public var showsDurations: Bool

        /// A printer; pass `showsDurations: false` for lines that are the same on every run.
        public init(showsDurations: Bool = true) {
            self.showsDurations = showsDurations
        }

        /// The lines for `events`, the point events of one send in the order they were recorded.
        /// Events of other sends are ignored (those whose identifier differs from the first one's).
        public func lines(for events: [TraceEvent]) -> [String] {
            guard let eventID = events.first?.eventID else { return [] }
            let events = events.filter { $0.eventID == eventID }
            var lines: [String] = []
            var hops: [Hop.Record] = []
            var footer: [String] = []
            for event in events {
                switch event {
                case .sent(let sent):
                    // A posted event's time in the queue is a duration too: printed only with them.
                    let queued =
                        sent.queued.map { showsDurations ? " (queued \(Self.format($0)))" : " (posted)" }
                        ?? ""
                    lines.append("\(sent.eventID) \(sent.eventName) from \(sent.source)\(queued)")
                case .hopEntered:
                    break
                case .hopLeft(let record):
                    hops.append(record)
                case .deadLettered:
                    footer.append("  = dead-lettered")
                case .finished(let outcome):
                    footer.insert("  = \(outcome)", at: 0)
                }
            }
            if lines.isEmpty { lines.append("\(eventID)") }
            lines += hopLines(hops)
            return lines + footer
        }

        /// The lines joined with newlines.
        public func render(_ events: [TraceEvent]) -> String {
            lines(for: events).joined(separator: "\n")
        }

        private func hopLines(_ hops: [Hop.Record]) -> [String] {
            let rows = hops.map { record -> [String] in
                return [
                    "\(record.hop.number)",
                    record.hop.phase == .capture
                        ? "↓ \(record.hop.responder.label)" : record.hop.responder.label,
                    record.hop.isolation.description,
                    record.resultDescription,
                    record.added.map { "+\($0)" }.joined(separator: " "),
                    showsDurations ? Self.format(record.duration) : "",
                ]
            }
            guard let columns = rows.first?.count else { return [] }
            let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
            return rows.map { row in
                // Pad every column but the last non-empty one; two spaces between columns.
                let used = (row.lastIndex { !$0.isEmpty } ?? 0) + 1
                let cells = row.prefix(used).enumerated().map { column, cell in
                    column == used - 1 ? cell : cell.padding(to: widths[column])
                }
                return "  " + cells.joined(separator: "  ")
            }
        }

        /// `850ns`, `3.1µs`, `12.0ms`, `2.5s`.
        static func format(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            func tenths(_ value: Int64, _ unit: Int64, _ suffix: String) -> String {
                let scaled = value * 10 / unit
                return "\(scaled / 10).\(scaled % 10)\(suffix)"
            }
            switch nanoseconds {
            case ..<1_000: return "\(nanoseconds)ns"
            case ..<1_000_000: return tenths(nanoseconds, 1_000, "µs")
            case ..<1_000_000_000: return tenths(nanoseconds, 1_000_000, "ms")
            default: return tenths(nanoseconds, 1_000_000_000, "s")
            }
        }
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
