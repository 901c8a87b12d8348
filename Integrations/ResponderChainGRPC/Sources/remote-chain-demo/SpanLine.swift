import Foundation
import InMemoryTracing
import Tracing

/// One finished span, as a line the backend prints and the gateway reads back, so that the
/// spans of both processes can be shown as one trace.
struct SpanLine: Comparable {
    let process: String
    let traceID: String
    let spanID: String
    let parentID: String?
    let name: String
    let start: UInt64
    let end: UInt64

    init(_ span: FinishedInMemorySpan, process: String) {
        self.process = process
        self.traceID = span.traceID
        self.spanID = span.spanID
        self.parentID = span.parentSpanID
        self.name = span.operationName
        self.start = span.startInstant.nanosecondsSinceEpoch
        self.end = span.endInstant.nanosecondsSinceEpoch
    }

    /// The line's fields, tab-separated, after the word `span`.
    var text: String {
        ["span", process, traceID, spanID, parentID ?? "-", name, "\(start)", "\(end)"].joined(
            separator: "\t")
    }

    /// Reads a line printed by ``text``; `nil` for any other line.
    init?(line: String) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 8, fields[0] == "span", let start = UInt64(fields[6]),
            let end = UInt64(fields[7])
        else { return nil }
        self.process = fields[1]
        self.traceID = fields[2]
        self.spanID = fields[3]
        self.parentID = fields[4] == "-" ? nil : fields[4]
        self.name = fields[5]
        self.start = start
        self.end = end
    }

    static func < (lhs: SpanLine, rhs: SpanLine) -> Bool { lhs.start < rhs.start }

    /// The spans as trees, one per trace, children under their parents in start order.
    static func render(_ spans: [SpanLine]) -> String {
        let children = Dictionary(grouping: spans.sorted(), by: \.parentID)
        let ids = Set(spans.map(\.spanID))
        var lines: [String] = []
        func walk(_ span: SpanLine, depth: Int) {
            let micros = Double(span.end - span.start) / 1_000
            let indent = String(repeating: "  ", count: depth)
            lines.append("\(indent)\(span.name)  [\(span.process), \(String(format: "%.0f", micros)) µs]")
            for child in children[span.spanID] ?? [] { walk(child, depth: depth + 1) }
        }
        for root in spans.sorted() where root.parentID.map({ !ids.contains($0) }) ?? true {
            lines.append("trace \(root.traceID)")
            walk(root, depth: 1)
        }
        return lines.joined(separator: "\n")
    }
}
