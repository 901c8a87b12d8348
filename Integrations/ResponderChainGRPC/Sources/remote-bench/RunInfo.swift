import Foundation

/// Where and how the benchmark ran, for the header.
enum RunInfo {
    /// The date, the machine (system, cores, memory, load) and the kind of run.
    static func line(_ options: Options) -> String {
        let process = ProcessInfo.processInfo
        let memory = Double(process.physicalMemory) / 1_073_741_824
        var loads = [0.0, 0.0, 0.0]
        let load = getloadavg(&loads, 3) == 3 ? ", load \(Format.fixed(loads[0], digits: 2))" : ""
        return
            "\(ISO8601DateFormatter().string(from: Date())) · \(process.operatingSystemVersionString), "
            + "\(process.activeProcessorCount) cores, \(Format.fixed(memory, digits: 1)) GiB\(load) · "
            + (options.quick ? "quick run" : "full run")
    }
}
