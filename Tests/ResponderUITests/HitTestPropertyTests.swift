import ResponderChainTesting
import ResponderUI
import Testing

/// A random view tree described as plain values, so that the oracle below reads the description
/// and never the views.
private struct NodeSpec {
    var parent: Int?
    var children: [Int] = []
    var frame: (x: Double, y: Double, width: Double, height: Double)
    var boundsOrigin: (x: Double, y: Double)
    var hidden: Bool
    var alpha: Double
    var interactive: Bool
    var insets: (top: Double, left: Double, bottom: Double, right: Double)
    /// Set on the view; the oracle ignores it (hit testing does not depend on clipping).
    var clips: Bool
}

private enum RandomTrees {
    static func make(using random: inout SplitMix64) -> [NodeSpec] {
        let count = random.int(in: 1...25)
        var nodes: [NodeSpec] = []
        for index in 0..<count {
            let isRoot = index == 0
            let node = NodeSpec(
                parent: isRoot ? nil : (random.chance(40) ? 0 : random.int(in: 0...(index - 1))),
                frame: (
                    x: isRoot ? 0 : Double(random.int(in: -10...60)),
                    y: isRoot ? 0 : Double(random.int(in: -10...60)),
                    width: Double(isRoot ? random.int(in: 120...200) : random.int(in: 5...100)),
                    height: Double(isRoot ? random.int(in: 120...200) : random.int(in: 5...100))
                ),
                boundsOrigin: random.chance(20)
                    ? (x: Double(random.int(in: -15...15)), y: Double(random.int(in: -15...15)))
                    : (x: 0, y: 0),
                hidden: !isRoot && random.chance(8),
                alpha: isRoot ? 1 : random.pick([1, 1, 1, 1, 1, 0.5, 0.011, 0.01, 0.005, 0]),
                interactive: isRoot || !random.chance(8),
                insets: random.chance(25)
                    ? (
                        top: Double(random.int(in: -10...5)), left: Double(random.int(in: -10...5)),
                        bottom: Double(random.int(in: -10...5)), right: Double(random.int(in: -10...5))
                    ) : (top: 0, left: 0, bottom: 0, right: 0),
                clips: random.chance(30)
            )
            nodes.append(node)
            if let parent = node.parent { nodes[parent].children.append(index) }
        }
        return nodes
    }

    /// Builds the views. Children end up in `children` order, reached through a random mix of
    /// `addSubview`, `insertSubview(_:at: 0)` in reverse, and `bringSubviewToFront`.
    @MainActor
    static func build(_ nodes: [NodeSpec], using random: inout SplitMix64) -> [View] {
        let views = nodes.enumerated().map { index, node in
            let view = View(
                frame: Rect(
                    x: node.frame.x, y: node.frame.y, width: node.frame.width, height: node.frame.height),
                label: "v\(index)")
            view.boundsOrigin = Point(x: node.boundsOrigin.x, y: node.boundsOrigin.y)
            view.isHidden = node.hidden
            view.alpha = node.alpha
            view.isUserInteractionEnabled = node.interactive
            view.clipsToBounds = node.clips
            view.hitAreaInsets = EdgeInsets(
                top: node.insets.top, left: node.insets.left, bottom: node.insets.bottom,
                right: node.insets.right)
            return view
        }
        for (index, node) in nodes.enumerated() {
            switch random.int(in: 0...2) {
            case 0:
                for child in node.children { views[index].addSubview(views[child]) }
            case 1:
                for child in node.children.reversed() { views[index].insertSubview(views[child], at: 0) }
            default:
                for child in node.children.shuffled(using: &random) { views[index].addSubview(views[child]) }
                for child in node.children { views[index].bringSubviewToFront(views[child]) }
            }
        }
        return views
    }
}

/// The oracle, written independently of the library: a view is a candidate when it and every
/// ancestor are eligible and contain the point (each in its own coordinates, computed as one
/// translation from the root); the hit is the candidate that comes last in drawing order
/// (depth-first, children back to front).
private enum HitOracle {
    static func hit(_ nodes: [NodeSpec], at point: (x: Double, y: Double)) -> Int? {
        var answer: Int?
        // (node, translation from root coordinates into the node's coordinates)
        var stack: [(Int, Double, Double)] = [(0, 0, 0)]
        while let (index, dx, dy) = stack.popLast() {
            let node = nodes[index]
            let eligible = !node.hidden && node.interactive && node.alpha > 0.01
            let x = point.x + dx
            let y = point.y + dy
            let left = node.boundsOrigin.x + node.insets.left
            let top = node.boundsOrigin.y + node.insets.top
            let right = node.boundsOrigin.x + node.frame.width - node.insets.right
            let bottom = node.boundsOrigin.y + node.frame.height - node.insets.bottom
            let inside = left <= x && x < right && top <= y && y < bottom
            guard eligible && inside else { continue }  // not a candidate: nor is its subtree
            answer = index
            // Push children so the front-most is visited last.
            for child in node.children.reversed() {
                let frame = nodes[child].frame
                let origin = nodes[child].boundsOrigin
                stack.append((child, dx - frame.x + origin.x, dy - frame.y + origin.y))
            }
        }
        return answer
    }
}

@Suite("Hit testing matches an independent oracle")
@MainActor
struct HitTestPropertyTests {
    @Test("1,000 seeded random trees × 20 random points each")
    func randomTrees() {
        var random = SplitMix64(seed: 0x5EED_1234)
        var checked = 0
        var hits = 0
        var deepHits = 0
        for tree in 0..<1_000 {
            let nodes = RandomTrees.make(using: &random)
            let views = RandomTrees.build(nodes, using: &random)
            let indexOf = Dictionary(
                uniqueKeysWithValues: views.enumerated().map { (ObjectIdentifier($1), $0) })
            for _ in 0..<20 {
                let point = (
                    x: Double(random.int(in: -10...190)) + (random.chance(30) ? 0.5 : 0),
                    y: Double(random.int(in: -10...190)) + (random.chance(30) ? 0.5 : 0)
                )
                let expected = HitOracle.hit(nodes, at: point)
                let actual = views[0].hitTest(Point(x: point.x, y: point.y)).flatMap {
                    indexOf[ObjectIdentifier($0)]
                }
                #expect(actual == expected, "tree \(tree), point \(point)")
                checked += 1
                if expected != nil { hits += 1 }
                if let expected, expected != 0 { deepHits += 1 }
            }
        }
        #expect(checked == 20_000)
        // The generator must produce real hits, not only misses.
        #expect(hits > 10_000, "\(hits) hits")
        #expect(deepHits > 2_500, "\(deepHits) hits below the root")
    }
}
