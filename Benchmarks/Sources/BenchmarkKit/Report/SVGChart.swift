import Foundation

/// A chart of ns per hop against chain depth, both on log scales: the library's line (solid) and
/// its baseline's (dashed) for each chain scenario, the peers' lines (dashed; their library side
/// is scenario 1's), NotificationCenter as a grey reference.
struct SVGChart {
    let rows: [Row]
    let subtitle: String

    /// One line on the chart.
    private struct Series {
        var name: String
        var color: String
        var dashed: Bool
        var points: [(depth: Int, value: Double)]
    }

    private static let palette = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    ]
    private static let charted: Set<String> = [
        "actors", "shared-executor", "main-actor", "posted", "notification-center", "peers",
    ]

    private var series: [Series] {
        var groups: [String: [Row]] = [:]
        var order: [String] = []
        for row in rows where row.unit == .nanoseconds && row.depth != nil && Self.charted.contains(row.id) {
            if groups[row.scenario] == nil { order.append(row.scenario) }
            groups[row.scenario, default: []].append(row)
        }
        var result: [Series] = []
        var colorIndex = 0
        for name in order {
            let group = groups[name] ?? []
            let reference = group.first?.id == "notification-center"
            let peer = group.first?.id == "peers"
            let color = reference ? "#7f7f7f" : Self.palette[colorIndex % Self.palette.count]
            if !reference { colorIndex += 1 }
            let library = group.compactMap { row in
                row.libraryPerHop.map { (depth: row.depth ?? 1, value: $0.median) }
            }
            let baseline = group.compactMap { row in
                row.baselinePerHop.map { (depth: row.depth ?? 1, value: $0.median) }
            }
            if !library.isEmpty && !peer {
                result.append(
                    Series(
                        name: reference ? name : "\(name): library", color: color, dashed: false,
                        points: library))
            }
            if !baseline.isEmpty {
                result.append(
                    Series(
                        name: "\(name): \(peer ? "peer" : "baseline")", color: color, dashed: true,
                        points: baseline))
            }
        }
        return result
    }

    var text: String {
        let width = 1000.0
        let height = 600.0
        let left = 80.0
        let right = 380.0
        let top = 60.0
        let bottom = 60.0
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let lines = series
        let values = lines.flatMap { $0.points.map(\.value) }.filter { $0 > 0 }
        let depths = lines.flatMap { $0.points.map(\.depth) }
        let lowDecade = floor(log10(values.min() ?? 1))
        let highDecade = max(lowDecade + 1, ceil(log10(values.max() ?? 10)))
        let maxDepth = Double(max(depths.max() ?? 512, 2))

        func x(_ depth: Int) -> Double { left + log(Double(depth)) / log(maxDepth) * plotWidth }
        func y(_ value: Double) -> Double {
            top + plotHeight - (log10(value) - lowDecade) / (highDecade - lowDecade) * plotHeight
        }

        var svg: [String] = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"\(left)\" y=\"24\" font-size=\"16\" font-weight=\"bold\">ResponderChain: ns per hop against chain depth (log–log)</text>",
            "<text x=\"\(left)\" y=\"44\" fill=\"#555\">\(Self.escape(subtitle))</text>",
        ]
        // Horizontal grid: 1, 2, 5 × each decade.
        var decade = lowDecade
        while decade <= highDecade {
            for factor in [1.0, 2.0, 5.0] {
                let value = factor * pow10(decade)
                let level = log10(value)
                guard level >= lowDecade - 1e-9, level <= highDecade + 1e-9 else { continue }
                let position = y(value)
                let major = factor == 1
                svg.append(
                    "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(left + plotWidth)\" y2=\"\(position)\" stroke=\"\(major ? "#bbb" : "#e5e5e5")\"/>"
                )
                svg.append(
                    "<text x=\"\(left - 6)\" y=\"\(position + 4)\" text-anchor=\"end\" fill=\"#333\">\(Self.axisLabel(value))</text>"
                )
            }
            decade += 1
        }
        // Vertical grid at each measured depth.
        for depth in Set(depths).sorted() {
            let position = x(depth)
            svg.append(
                "<line x1=\"\(position)\" y1=\"\(top)\" x2=\"\(position)\" y2=\"\(top + plotHeight)\" stroke=\"#e5e5e5\"/>"
            )
            svg.append(
                "<text x=\"\(position)\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\" fill=\"#333\">\(depth)</text>"
            )
        }
        svg.append(
            "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"#333\"/>"
        )
        svg.append(
            "<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 16)\" text-anchor=\"middle\">chain depth D (responders)</text>"
        )
        svg.append(
            "<text x=\"18\" y=\"\(top + plotHeight / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(top + plotHeight / 2))\">ns per hop (median)</text>"
        )
        // Lines and the legend.
        for (index, line) in lines.enumerated() {
            let points = line.points.sorted { $0.depth < $1.depth }
            let path = points.map { "\(x($0.depth)),\(y($0.value))" }.joined(separator: " ")
            let dash = line.dashed ? " stroke-dasharray=\"6 4\"" : ""
            svg.append(
                "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>"
            )
            for point in points {
                let marker =
                    line.dashed
                    ? "<rect x=\"\(x(point.depth) - 3.5)\" y=\"\(y(point.value) - 3.5)\" width=\"7\" height=\"7\" fill=\"white\" stroke=\"\(line.color)\" stroke-width=\"1.5\"/>"
                    : "<circle cx=\"\(x(point.depth))\" cy=\"\(y(point.value))\" r=\"3.5\" fill=\"\(line.color)\"/>"
                svg.append(marker)
            }
            let legendY = top + 8 + Double(index) * 20
            let legendX = left + plotWidth + 20
            svg.append(
                "<line x1=\"\(legendX)\" y1=\"\(legendY)\" x2=\"\(legendX + 30)\" y2=\"\(legendY)\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>"
            )
            svg.append(
                "<text x=\"\(legendX + 38)\" y=\"\(legendY + 4)\">\(Self.escape(line.name))</text>")
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private func pow10(_ exponent: Double) -> Double {
        var value = 1.0
        if exponent >= 0 {
            for _ in 0..<Int(exponent) { value *= 10 }
        } else {
            for _ in 0..<Int(-exponent) { value /= 10 }
        }
        return value
    }

    /// `10`, `2,000`, `0.5`.
    private static func axisLabel(_ value: Double) -> String {
        value >= 1 && value == value.rounded() ? Format.grouped(Int(value)) : Format.number(value)
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
