internal import Instrumentation

/// The trace context a request carries: header fields (for a W3C propagator, `traceparent` and
/// `tracestate`) that an `Instrument` writes from the sending task's `ServiceContext` and the
/// other side's reads back into one.
///
/// The link injects only when the sending task has a `ServiceContext` (inside a traced hop it is
/// the hop span's); without one nothing is written and the receiving side posts with no context,
/// so an untraced chain pays nothing for tracing across the boundary.
enum TraceHeaders {
    /// The headers `instrument` writes for the current task's context; empty without one.
    static func inject(using instrument: (any Instrument)?) -> [String: String] {
        guard let context = ServiceContext.current else { return [:] }
        var headers: [String: String] = [:]
        (instrument ?? InstrumentationSystem.instrument).inject(
            context, into: &headers, using: DictionaryInjector())
        return headers
    }

    /// The context `instrument` reads from `headers`, on top of the current task's (or an empty
    /// one); `nil` when there are no headers.
    static func extract(_ headers: [String: String], using instrument: (any Instrument)?) -> ServiceContext? {
        guard !headers.isEmpty else { return nil }
        var context = ServiceContext.current ?? .topLevel
        (instrument ?? InstrumentationSystem.instrument).extract(
            headers, into: &context, using: DictionaryExtractor())
        return context
    }
}

/// Writes header fields into a dictionary, lower-cased as HTTP/2 sends them.
private struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key.lowercased()] = value
    }
}

/// Reads header fields from a dictionary, whatever the case of the name asked for.
private struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key.lowercased()]
    }
}
