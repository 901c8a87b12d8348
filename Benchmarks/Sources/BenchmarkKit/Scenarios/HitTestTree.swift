import ResponderUI

/// The three 10,000-view trees of scenario 6, built the same way for the library's `View` and
/// for ``BareView``, with the point to probe.
enum HitTestTree: CaseIterable {
    /// One parent, 10,000 children side by side with enlarged hit areas; the probe is inside the
    /// parent and outside every child: every child is visited and rejected.
    case wide
    /// 10,000 views nested one in the other; the probe is inside all of them: the deepest is hit.
    case deep
    /// 100 levels of 100 siblings; at every level the view on the path is the first added (so
    /// tested last) and its 99 later siblings miss: every view is visited.
    case worstOrder

    static let size = 10_000

    var name: String {
        switch self {
        case .wide: return "wide"
        case .deep: return "deep"
        case .worstOrder: return "worst sibling order"
        }
    }

    /// Where to probe, in the root's coordinates.
    var probe: (x: Double, y: Double) {
        switch self {
        case .wide: return (5, 75)
        case .deep, .worstOrder: return (5, 5)
        }
    }

    /// Builds the tree with `make` (a view for a frame) and `add` (parent, child); returns the root.
    func build<Node>(
        make: (Double, Double, Double, Double) -> Node,
        insets: (Node) -> Void,
        add: (Node, Node) -> Void
    ) -> Node {
        switch self {
        case .wide:
            let root = make(0, 0, Double(Self.size) * 10, 100)
            for index in 0..<Self.size {
                let child = make(Double(index) * 10, 0, 10, 50)
                insets(child)
                add(root, child)
            }
            return root
        case .deep:
            // Built from the leaf up, so each insertion is O(1).
            var current = make(0, 0, 100, 100)
            for _ in 1..<Self.size {
                let parent = make(0, 0, 100, 100)
                add(parent, current)
                current = parent
            }
            return current
        case .worstOrder:
            let root = make(0, 0, 1000, 1000)
            var parent = root
            for _ in 0..<100 {
                let path = make(0, 0, 1000, 1000)
                add(parent, path)
                for sibling in 0..<99 {
                    add(parent, make(1000 + Double(sibling) * 10, 0, 10, 10))
                }
                parent = path
            }
            return root
        }
    }

    @MainActor
    func libraryTree() -> View {
        build(
            make: { View(frame: Rect(x: $0, y: $1, width: $2, height: $3)) },
            insets: { $0.hitAreaInsets = EdgeInsets(all: -5) },
            add: { $0.addSubview($1) })
    }

    func baselineTree() -> BareView {
        build(
            make: { BareView(x: $0, y: $1, width: $2, height: $3) },
            insets: { $0.insets = (-5, -5, -5, -5) },
            add: { $0.addSubview($1) })
    }
}
