/// The results as a JSON array of objects, one per row, with responder-bench's keys: `scenario`,
/// `id` (the peer: `nio`, `opencombine`), `depth`, `unit`, `ns_per_event`, `ns_per_hop` with its
/// min/max, the same `baseline_*` figures for the peer, `value` and `baseline_value` (always
/// `null`: no memory rows here), `hops_per_event`, `ratio`, `target`, `met`, `note` and `run`.
struct JSONReport {
    let rows: [Row]
    /// Run metadata (date, machine, mode), repeated in every row under `run` so that the file
    /// stays a plain array of rows.
    let run: [String: String]

    var text: String {
        let objects = rows.map { row -> String in
            let fields: [(String, String)] = [
                ("scenario", Self.string(row.peer.title)),
                ("id", Self.string(row.peer.rawValue)),
                ("depth", String(row.depth)),
                ("unit", Self.string("ns")),
                ("ns_per_event", Self.number(row.library.median)),
                ("ns_per_hop", Self.number(row.libraryPerHop.median)),
                ("ns_per_hop_min", Self.number(row.libraryPerHop.min)),
                ("ns_per_hop_max", Self.number(row.libraryPerHop.max)),
                ("baseline_ns_per_event", Self.number(row.baseline.median)),
                ("baseline_ns_per_hop", Self.number(row.baselinePerHop.median)),
                ("baseline_ns_per_hop_min", Self.number(row.baselinePerHop.min)),
                ("baseline_ns_per_hop_max", Self.number(row.baselinePerHop.max)),
                ("value", "null"),
                ("baseline_value", "null"),
                ("hops_per_event", Self.number(Double(row.depth))),
                ("ratio", Self.number(row.ratio)),
                ("target", Self.string(Row.target)),
                ("met", row.met.map { $0 ? "true" : "false" } ?? "null"),
                ("note", Self.string(row.peer.note)),
                ("run", Self.object(run)),
            ]
            return "  {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return Format.fixed(value, digits: 3)
    }

    private static func object(_ dictionary: [String: String]) -> String {
        "{"
            + dictionary.sorted { $0.key < $1.key }.map { "\(string($0.key)): \(string($0.value))" }
            .joined(separator: ", ") + "}"
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
