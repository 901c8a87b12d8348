/// The results as a plain-text table for the terminal (and, with `markdown`, for the docs).
struct Table {
    let rows: [Row]

    static let headers = [
        "scenario", "D", "ns/event", "ns/hop (min–max)", "baseline ns/hop (min–max)", "ratio",
        "target", "met?",
    ]

    /// The cells of every row.
    var cells: [[String]] {
        rows.map { row in
            let depth = row.depth.map(String.init) ?? "-"
            let ratio = row.ratio.map { Format.fixed($0, digits: 2) + "×" } ?? "-"
            let met = row.met.map { $0 ? "yes" : "NO" } ?? "-"
            switch row.unit {
            case .nanoseconds:
                let event = row.library.map { Format.number($0.median) } ?? "pending"
                let hop = row.libraryPerHop.map(Format.sample) ?? (row.library == nil ? "-" : "")
                let baseline = row.baselinePerHop.map(Format.sample) ?? "-"
                return [
                    row.scenario, depth, row.baseline == nil && row.library == nil ? "-" : event,
                    hop, baseline, ratio, row.target.description, met,
                ]
            case .bytes, .allocations, .kibibytes:
                let unit = " " + row.unit.rawValue
                let value = row.library.map { Format.number($0.median) + unit } ?? "-"
                let baseline = row.baseline.map { Format.number($0.median) + unit } ?? "-"
                return [row.scenario, depth, value, "-", baseline, ratio, row.target.description, met]
            }
        }
    }

    /// Aligned columns separated by two spaces, then the notes.
    var text: String {
        let all = [Self.headers] + cells
        var widths = Array(repeating: 0, count: Self.headers.count)
        for line in all {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var lines = all.map { line in
            line.enumerated().map { index, cell in
                index == 0 || index == Self.headers.count - 2
                    ? cell.padding(to: widths[index]) : cell.leftPadding(to: widths[index])
            }.joined(separator: "  ")
        }
        lines.insert(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)), at: 1)
        return (lines + notes.map { "note " + $0 }).joined(separator: "\n")
    }

    /// A GitHub Markdown table, then the notes as a list.
    var markdown: String {
        var lines = [
            "| " + Self.headers.joined(separator: " | ") + " |",
            "|"
                + Self.headers.enumerated().map { index, _ in index == 0 ? "---" : "---:" }
                .joined(separator: "|") + "|",
        ]
        lines += cells.map { "| " + $0.joined(separator: " | ") + " |" }
        if !notes.isEmpty { lines += [""] + notes.map { "- " + $0 } }
        return lines.joined(separator: "\n")
    }

    /// The rows' notes, without repeats.
    var notes: [String] {
        var seen: Set<String> = []
        return rows.compactMap(\.note).filter { seen.insert($0).inserted }
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }

    fileprivate func leftPadding(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
