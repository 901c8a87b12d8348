/// One line of the results: the library and one peer moving the same event through D stages.
struct Row: Sendable {
    /// What every row must be to meet its target.
    static let target = "faster than peer"

    /// The peer.
    var peer: Peer
    /// The chain depth: hops (stages) per event.
    var depth: Int
    /// The library, ns per event.
    var library: Sample
    /// The peer, ns per event.
    var baseline: Sample

    /// The library per hop.
    var libraryPerHop: Sample { library.scaled(by: 1 / Double(depth)) }
    /// The peer per hop.
    var baselinePerHop: Sample { baseline.scaled(by: 1 / Double(depth)) }

    /// Library per hop ÷ peer per hop (medians).
    var ratio: Double? {
        baselinePerHop.median > 0 ? libraryPerHop.median / baselinePerHop.median : nil
    }

    /// Whether the library is faster than the peer (ratio below 1).
    var met: Bool? { ratio.map { $0 < 1 } }
}
