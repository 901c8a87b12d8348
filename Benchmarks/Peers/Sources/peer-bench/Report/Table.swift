/// The results as a plain-text table for the terminal, then the notes.
struct Table {
    let rows: [Row]

    static let headers = [
        "scenario", "D", "ns/event", "ns/hop (min–max)", "peer ns/event", "peer ns/hop (min–max)",
        "ratio", "target", "met?",
    ]

    /// The cells of every row.
    var cells: [[String]] {
        rows.map { row in
            [
                row.peer.title, String(row.depth), Format.number(row.library.median),
                Format.sample(row.libraryPerHop), Format.number(row.baseline.median),
                Format.sample(row.baselinePerHop),
                row.ratio.map { Format.fixed($0, digits: 2) + "×" } ?? "-", Row.target,
                row.met.map { $0 ? "yes" : "NO" } ?? "-",
            ]
        }
    }

    /// Aligned columns separated by two spaces (text left, figures right), then the notes.
    var text: String {
        let all = [Self.headers] + cells
        var widths = Array(repeating: 0, count: Self.headers.count)
        for line in all {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        let leftAligned: Set<Int> = [0, Self.headers.count - 2]
        var lines = all.map { line in
            line.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
                return leftAligned.contains(index) ? cell + padding : padding + cell
            }
            .joined(separator: "  ")
        }
        lines.insert(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)), at: 1)
        return (lines + notes.map { "note " + $0 }).joined(separator: "\n")
    }

    /// The library's note, then one per peer in the rows.
    var notes: [String] {
        [LibraryChain.note] + Peer.allCases.filter { peer in rows.contains { $0.peer == peer } }.map(\.note)
    }
}
