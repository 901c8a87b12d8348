/// The results as a JSON array of objects, one per row, with the keys `scenario`, `depth`,
/// `ns_per_event`, `ns_per_hop`, `baseline_ns_per_hop`, `ratio`, `target`, `met`, plus the
/// min/max of each, `id`, `unit`, `value` and `baseline_value` (memory rows), and `note`.
/// Missing figures are `null`.
struct JSONReport {
    let rows: [Row]
    /// Run metadata (date, machine, mode), repeated in every row under `run` so that the file
    /// stays a plain array of rows.
    let run: [String: String]

    var text: String {
        let objects = rows.map { row -> String in
            let nanoseconds = row.unit == .nanoseconds
            var fields: [(String, String)] = [
                ("scenario", Self.string(row.scenario)),
                ("id", Self.string(row.id)),
                ("depth", row.depth.map(String.init) ?? "null"),
                ("unit", Self.string(row.unit.rawValue)),
                ("ns_per_event", nanoseconds ? Self.number(row.library?.median) : "null"),
                ("ns_per_hop", nanoseconds ? Self.number(row.libraryPerHop?.median) : "null"),
                ("ns_per_hop_min", nanoseconds ? Self.number(row.libraryPerHop?.min) : "null"),
                ("ns_per_hop_max", nanoseconds ? Self.number(row.libraryPerHop?.max) : "null"),
                ("baseline_ns_per_event", nanoseconds ? Self.number(row.baseline?.median) : "null"),
                ("baseline_ns_per_hop", nanoseconds ? Self.number(row.baselinePerHop?.median) : "null"),
                ("baseline_ns_per_hop_min", nanoseconds ? Self.number(row.baselinePerHop?.min) : "null"),
                ("baseline_ns_per_hop_max", nanoseconds ? Self.number(row.baselinePerHop?.max) : "null"),
                ("value", nanoseconds ? "null" : Self.number(row.library?.median)),
                ("baseline_value", nanoseconds ? "null" : Self.number(row.baseline?.median)),
                ("hops_per_event", Self.number(row.hops)),
                ("ratio", Self.number(row.ratio)),
                ("target", Self.string(row.target.description)),
                ("met", row.met.map { $0 ? "true" : "false" } ?? "null"),
                ("note", row.note.map(Self.string) ?? "null"),
            ]
            fields.append(
                (
                    "run",
                    "{"
                        + run.sorted { $0.key < $1.key }.map {
                            "\(Self.string($0.key)): \(Self.string($0.value))"
                        }
                        .joined(separator: ", ") + "}"
                ))
            return "  {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return Format.fixed(value, digits: 3)
    }

    private static func string(_ value: String) -> String {
        var escaped = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped + "\""
    }
}
