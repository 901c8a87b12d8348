/// Number formatting shared by the reports.
enum Format {
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

    /// `median (min–max)`.
    static func sample(_ sample: Sample) -> String {
        if sample.min == sample.max { return number(sample.median) }
        return "\(number(sample.median)) (\(number(sample.min))–\(number(sample.max)))"
    }
}
