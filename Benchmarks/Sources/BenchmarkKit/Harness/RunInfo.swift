import Foundation

/// Where and how the benchmark ran, for the reports.
struct RunInfo {
    var date: String
    var machine: String
    var mode: String

    /// The current run's details.
    static func current(_ options: Options) -> RunInfo {
        let formatter = ISO8601DateFormatter()
        let process = ProcessInfo.processInfo
        let cores = process.activeProcessorCount
        let memory = Double(process.physicalMemory) / 1_073_741_824
        var loads = [0.0, 0.0, 0.0]
        let load =
            getloadavg(&loads, 3) == 3
            ? ", load \(Format.fixed(loads[0], digits: 2))" : ""
        return RunInfo(
            date: formatter.string(from: Date()),
            machine:
                "\(process.operatingSystemVersionString), \(cores) cores, "
                + "\(Format.fixed(memory, digits: 1)) GiB\(load)",
            mode: options.quick ? "quick" : "full")
    }

    var dictionary: [String: String] { ["date": date, "machine": machine, "mode": mode] }

    var line: String { "\(date) · \(machine) · \(mode) run" }
}
