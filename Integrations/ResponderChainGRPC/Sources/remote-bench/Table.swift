/// One measured path in the table.
struct Row: Sendable {
    /// What was measured.
    var path: String
    /// How many senders or callers ran concurrently.
    var concurrency: Int
    /// Nanoseconds per call or event (with several senders: wall time ÷ events, all senders
    /// together).
    var sample = Sample([0])
    /// The row it is compared with, if any (its index in the table).
    var baseline: Int? = nil
}

/// The results as a Markdown table, with each row's ratio to its baseline (medians) and what
/// it adds to it.
struct Table {
    let rows: [Row]

    var markdown: String {
        var lines = [
            "| path | senders | µs per call or event (min–max) | per second | baseline | ratio | added µs |",
            "|---|---:|---:|---:|---|---:|---:|",
        ]
        for (number, row) in zip(1..., rows) {
            let perSecond = 1e9 / row.sample.median
            var baseline = "-"
            var ratio = "-"
            var added = "-"
            if let index = row.baseline {
                let base = rows[index]
                baseline = "\(index + 1)"
                ratio = Format.fixed(row.sample.median / base.sample.median, digits: 2) + "×"
                added = Format.signed((row.sample.median - base.sample.median) / 1_000)
            }
            lines.append(
                "| \(number) \(row.path) "
                    + "| \(row.concurrency) | \(Format.micro(row.sample)) | \(Format.grouped(Int(perSecond.rounded()))) "
                    + "| \(baseline) | \(ratio) | \(added) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// Number formatting.
enum Format {
    /// A sample in microseconds: `median (min–max)`.
    static func micro(_ sample: Sample) -> String {
        "\(number(sample.median / 1_000)) (\(number(sample.min / 1_000))–\(number(sample.max / 1_000)))"
    }

    /// `+12.3`, `-0.45`.
    static func signed(_ value: Double) -> String {
        (value >= 0 ? "+" : "") + number(value)
    }

    /// `1234.5` → `1,235`; `12.34` → `12.3`; `0.123` → `0.12`.
    static func number(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "-" }
        if abs(value) >= 100 { return grouped(Int(value.rounded())) }
        if abs(value) >= 10 { return fixed(value, digits: 1) }
        return fixed(value, digits: 2)
    }

    /// `value` with `digits` decimals.
    static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        let padded = String(repeating: "0", count: digits - fraction.count) + fraction
        return (value < 0 ? "-" : "") + "\(whole)" + (digits > 0 ? "." + padded : "")
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (value < 0 ? "-" : "") + result
    }
}
