import Foundation

/// A chart of ns per hop against chain depth, both on log scales: the library's line and each
/// peer's, as measured in this run (the library's figure is the median of its repetitions beside
/// the first peer).
struct SVGChart {
    let rows: [Row]
    let subtitle: String

    private static let colors: [String: String] = [
        "library": "#1f77b4", Peer.nio.rawValue: "#d62728", Peer.opencombine.rawValue: "#2ca02c",
    ]

    /// The lines: the library's, then one per peer.
    private var lines: [(name: String, points: [(depth: Int, value: Double)])] {
        var library: [Int: Double] = [:]
        var peers: [(name: String, points: [(depth: Int, value: Double)])] = []
        for peer in Peer.allCases {
            let own = rows.filter { $0.peer == peer }
            guard !own.isEmpty else { continue }
            for row in own where library[row.depth] == nil { library[row.depth] = row.libraryPerHop.median }
            peers.append((peer.rawValue, own.map { ($0.depth, $0.baselinePerHop.median) }))
        }
        return [("library", library.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })] + peers
    }

    var text: String {
        let (width, height, left, right, top, bottom) = (800.0, 480.0, 80.0, 180.0, 60.0, 60.0)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let lines = self.lines
        let values = lines.flatMap { $0.points.map(\.value) }.filter { $0 > 0 }
        let low = floor(log10(values.min() ?? 1))
        let high = max(low + 1, ceil(log10(values.max() ?? 10)))
        let maxDepth = Double(max(lines.flatMap { $0.points.map(\.depth) }.max() ?? 512, 2))
        func x(_ depth: Int) -> Double { left + log(Double(depth)) / log(maxDepth) * plotWidth }
        func y(_ value: Double) -> Double {
            top + plotHeight - (log10(value) - low) / (high - low) * plotHeight
        }

        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"\(left)\" y=\"24\" font-size=\"16\" font-weight=\"bold\">ResponderChain against SwiftNIO and OpenCombine: ns per hop (log–log)</text>",
            "<text x=\"\(left)\" y=\"44\" fill=\"#555\">\(subtitle)</text>",
        ]
        var decade = low
        while decade <= high {
            let value = pow(10, decade)
            svg.append(
                "<line x1=\"\(left)\" y1=\"\(y(value))\" x2=\"\(left + plotWidth)\" y2=\"\(y(value))\" stroke=\"#ccc\"/>"
            )
            svg.append(
                "<text x=\"\(left - 6)\" y=\"\(y(value) + 4)\" text-anchor=\"end\">\(Format.grouped(Int(value)))</text>"
            )
            decade += 1
        }
        for depth in Set(lines.flatMap { $0.points.map(\.depth) }).sorted() {
            svg.append(
                "<line x1=\"\(x(depth))\" y1=\"\(top)\" x2=\"\(x(depth))\" y2=\"\(top + plotHeight)\" stroke=\"#eee\"/>"
            )
            svg.append(
                "<text x=\"\(x(depth))\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\">\(depth)</text>"
            )
        }
        svg.append(
            "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"#333\"/>"
        )
        svg.append(
            "<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 16)\" text-anchor=\"middle\">chain depth D</text>"
        )
        svg.append(
            "<text x=\"18\" y=\"\(top + plotHeight / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(top + plotHeight / 2))\">ns per hop (median)</text>"
        )
        for (index, line) in lines.enumerated() {
            let color = Self.colors[line.name] ?? "#555"
            let points = line.points.sorted { $0.depth < $1.depth }
            svg.append(
                "<polyline points=\"\(points.map { "\(x($0.depth)),\(y($0.value))" }.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            )
            for point in points {
                svg.append(
                    "<circle cx=\"\(x(point.depth))\" cy=\"\(y(point.value))\" r=\"3.5\" fill=\"\(color)\"/>")
            }
            let legendY = top + 10 + Double(index) * 20
            svg.append(
                "<line x1=\"\(left + plotWidth + 16)\" y1=\"\(legendY)\" x2=\"\(left + plotWidth + 46)\" y2=\"\(legendY)\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            )
            svg.append("<text x=\"\(left + plotWidth + 54)\" y=\"\(legendY + 4)\">\(line.name)</text>")
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
