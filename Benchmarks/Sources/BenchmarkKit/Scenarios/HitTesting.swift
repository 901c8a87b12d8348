import ResponderUI

/// Scenario 6: hit testing 10,000-view trees (``HitTestTree``) with the window layer's
/// `View.hitTest(_:)` against a plain recursive class tree with the same rules (``BareView``).
/// Per visited view: the baseline counts its visits in an untimed pass, and both trees have the
/// same shape and rules, so the library visits the same views (the hit views are checked equal by
/// position in the tree).
struct HitTesting: Scenario {
    let id = "hit-test"
    let title = "6 hit test 10k views"

    func run(_ measurer: Measurer) async -> [Row] {
        var rows: [Row] = []
        for tree in HitTestTree.allCases {
            let library = tree.libraryTree()
            let baseline = tree.baselineTree()
            let probe = tree.probe
            var visits = 0
            let baselineHit = baseline.countVisits(probe.x, probe.y, visits: &visits)
            let libraryHit = library.hitTest(Point(x: probe.x, y: probe.y))
            let agree = Self.depth(of: libraryHit) == Self.depth(of: baselineHit, in: baseline)
            let (librarySample, baselineSample) = await measurer.measurePair(
                library: { Self.hitTest(library, at: probe, iterations: $0) },
                baseline: { Self.hitTest(baseline, at: probe, iterations: $0) })
            rows.append(
                Row(
                    id: id, scenario: "\(title), \(tree.name)", depth: HitTestTree.size,
                    hops: Double(visits), library: librarySample, baseline: baselineSample,
                    target: .ratioAtMost(1.5),
                    note: agree
                        ? nil : "6 (\(tree.name)): library and baseline hit different views!"))
        }
        return rows
    }

    static func hitTest(_ root: View, at probe: (x: Double, y: Double), iterations: Int) -> Timed {
        let point = Point(x: probe.x, y: probe.y)
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for _ in 0..<iterations {
            if let hit = root.hitTest(point) { checksum &+= UInt64(hit.subviews.count) &+ 1 }
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }

    static func hitTest(_ root: BareView, at probe: (x: Double, y: Double), iterations: Int)
        -> Timed
    {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for _ in 0..<iterations {
            if let hit = root.hitTest(probe.x, probe.y) {
                checksum &+= UInt64(hit.subviews.count) &+ 1
            }
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }

    /// How many superviews `view` has.
    private static func depth(of view: View?) -> Int {
        var depth = 0
        var current = view?.superview
        while let parent = current {
            depth += 1
            current = parent.superview
        }
        return view == nil ? -1 : depth
    }

    /// How deep `view` is under `root` (the baseline has no superview links: search).
    private static func depth(of view: BareView?, in root: BareView) -> Int {
        guard let view else { return -1 }
        var level = 0
        var frontier = [root]
        while !frontier.isEmpty {
            if frontier.contains(where: { $0 === view }) { return level }
            frontier = frontier.flatMap(\.subviews)
            level += 1
        }
        return -1
    }
}
