import ResponderUI
import Testing

/// The scene every row of the table starts from (window coordinates in brackets):
///
/// ```
/// root            (0, 0, 300, 300)
/// ├─ parent       (10, 10, 100, 100)            [10…110]
/// │  ├─ leaf      (10, 10, 30, 30)               [20…50]
/// │  └─ overhang  (80, 80, 60, 60)               [90…150], sticks out of parent
/// ├─ back         (150, 10, 50, 50)              [150…200 × 10…60]
/// ├─ front        (170, 30, 50, 50)              [170…220 × 30…80], added after back
/// └─ small        (200, 200, 20, 20), insets −10 [190…230 × 190…230]
/// ```
@MainActor
private struct HitScene {
    let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 300), label: "root")
    let parent = View(frame: Rect(x: 10, y: 10, width: 100, height: 100), label: "parent")
    let leaf = View(frame: Rect(x: 10, y: 10, width: 30, height: 30), label: "leaf")
    let overhang = View(frame: Rect(x: 80, y: 80, width: 60, height: 60), label: "overhang")
    let back = View(frame: Rect(x: 150, y: 10, width: 50, height: 50), label: "back")
    let front = View(frame: Rect(x: 170, y: 30, width: 50, height: 50), label: "front")
    let small = View(frame: Rect(x: 200, y: 200, width: 20, height: 20), label: "small")

    init() {
        root.addSubview(parent)
        parent.addSubview(leaf)
        parent.addSubview(overhang)
        root.addSubview(back)
        root.addSubview(front)
        root.addSubview(small)
        small.hitAreaInsets = EdgeInsets(all: -10)
    }
}

/// A change applied to the scene before the hit test.
private enum Tweak: Sendable {
    case none
    case hideLeaf, hideParent
    case leafAlpha(Double), parentAlpha(Double)
    case leafAndParentAlpha(Double)
    case leafInteractionOff, parentInteractionOff
    case bringBackToFront, sendFrontToBack
    case clipParent(Bool)
    case scrollParent(x: Double, y: Double)

    @MainActor
    func apply(to scene: HitScene) {
        switch self {
        case .none: break
        case .hideLeaf: scene.leaf.isHidden = true
        case .hideParent: scene.parent.isHidden = true
        case .leafAlpha(let alpha): scene.leaf.alpha = alpha
        case .parentAlpha(let alpha): scene.parent.alpha = alpha
        case .leafAndParentAlpha(let alpha):
            scene.leaf.alpha = alpha
            scene.parent.alpha = alpha
        case .leafInteractionOff: scene.leaf.isUserInteractionEnabled = false
        case .parentInteractionOff: scene.parent.isUserInteractionEnabled = false
        case .bringBackToFront: scene.root.bringSubviewToFront(scene.back)
        case .sendFrontToBack: scene.root.sendSubviewToBack(scene.front)
        case .clipParent(let clips): scene.parent.clipsToBounds = clips
        case .scrollParent(let x, let y): scene.parent.boundsOrigin = Point(x: x, y: y)
        }
    }
}

/// One row: a tweak, a point in root coordinates, and the label of the view expected (or `nil`).
private struct HitCase: Sendable, CustomTestStringConvertible {
    let name: String
    let tweak: Tweak
    let point: Point
    let expected: String?

    init(_ name: String, _ tweak: Tweak = .none, at x: Double, _ y: Double, hits expected: String?) {
        self.name = name
        self.tweak = tweak
        self.point = Point(x: x, y: y)
        self.expected = expected
    }

    var testDescription: String { name }
}

private let hitCases: [HitCase] = [
    HitCase("baseline: the deepest view under the point", at: 25, 25, hits: "leaf"),
    HitCase("baseline: the parent around the leaf", at: 15, 15, hits: "parent"),
    HitCase("baseline: the root where nothing else is", at: 5, 250, hits: "root"),
    HitCase("a hidden leaf is skipped", .hideLeaf, at: 25, 25, hits: "parent"),
    HitCase("a hidden parent hides its subtree", .hideParent, at: 25, 25, hits: "root"),
    HitCase("alpha 0.005 is skipped", .leafAlpha(0.005), at: 25, 25, hits: "parent"),
    HitCase("alpha 0.01 is skipped (≤ 0.01)", .leafAlpha(0.01), at: 25, 25, hits: "parent"),
    HitCase("alpha 0.011 is hit", .leafAlpha(0.011), at: 25, 25, hits: "leaf"),
    HitCase("alpha 0.5 is hit", .leafAlpha(0.5), at: 25, 25, hits: "leaf"),
    HitCase("a parent at alpha 0.005 skips its subtree", .parentAlpha(0.005), at: 25, 25, hits: "root"),
    HitCase(
        "alpha is per view, not multiplied (0.1 × 0.1 = 0.01 would be skipped)",
        .leafAndParentAlpha(0.1), at: 25, 25, hits: "leaf"),
    HitCase("interaction off on the leaf", .leafInteractionOff, at: 25, 25, hits: "parent"),
    HitCase(
        "interaction off on the parent skips its subtree", .parentInteractionOff, at: 25, 25, hits: "root"),
    HitCase("overlapping siblings: the last added wins", at: 180, 40, hits: "front"),
    HitCase("overlapping siblings: only back is there", at: 155, 15, hits: "back"),
    HitCase("bring to front reorders", .bringBackToFront, at: 180, 40, hits: "back"),
    HitCase("send to back reorders", .sendFrontToBack, at: 180, 40, hits: "back"),
    HitCase("an overhanging child inside its parent is hit", at: 100, 100, hits: "overhang"),
    HitCase("an overhanging child outside its parent is not (clipping off)", at: 130, 130, hits: "root"),
    HitCase("…nor with clipping on", .clipParent(true), at: 130, 130, hits: "root"),
    HitCase("…and clipping off explicitly", .clipParent(false), at: 130, 130, hits: "root"),
    HitCase("unscrolled, the point is above the leaf", at: 25, 15, hits: "parent"),
    HitCase(
        "a scrolled parent moves its content under the point", .scrollParent(x: 0, y: 10), at: 25, 15,
        hits: "leaf"),
    HitCase(
        "a scrolled parent moves its content away", .scrollParent(x: 0, y: 30), at: 25, 25, hits: "parent"),
    HitCase("enlarged area: the top-left corner is inside", at: 190, 190, hits: "small"),
    HitCase("enlarged area: the left edge is inside", at: 190, 215, hits: "small"),
    HitCase("enlarged area: the top edge is inside", at: 215, 190, hits: "small"),
    HitCase("enlarged area: just above the top edge", at: 215, 189.99, hits: "root"),
    HitCase("enlarged area: just inside the right/bottom edge", at: 229.99, 229.99, hits: "small"),
    HitCase("enlarged area: the right edge is outside", at: 230, 200, hits: "root"),
    HitCase("enlarged area: the bottom edge is outside", at: 200, 230, hits: "root"),
    HitCase("enlarged area: just left of it", at: 189.99, 200, hits: "root"),
    HitCase("the root's right edge is outside: no view", at: 300, 10, hits: nil),
    HitCase("the root's bottom edge is outside: no view", at: 10, 300, hits: nil),
    HitCase("a leaf's right edge is outside it (half-open)", at: 50, 25, hits: "parent"),
    HitCase("a leaf's bottom edge is outside it (half-open)", at: 25, 50, hits: "parent"),
    HitCase("a leaf's top-left corner is inside it", at: 20, 20, hits: "leaf"),
    HitCase("a point outside everything: no view", at: -5, -5, hits: nil),
]

@Suite("Hit testing")
@MainActor
struct HitTestingTests {
    @Test("finds the view the rules say", arguments: hitCases)
    fileprivate func table(_ row: HitCase) {
        let scene = HitScene()
        row.tweak.apply(to: scene)
        #expect(scene.root.hitTest(row.point)?.label == row.expected)
    }

    @Test("a view can override the whole test to let hits through itself")
    func overriddenHitTest() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "root")
        let overlay = UIFixtures.PassThroughView(
            frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "overlay")
        let badge = View(frame: Rect(x: 10, y: 10, width: 10, height: 10), label: "badge")
        root.addSubview(overlay)
        overlay.addSubview(badge)
        #expect(root.hitTest(Point(x: 50, y: 50))?.label == "root")
        #expect(root.hitTest(Point(x: 15, y: 15))?.label == "badge")
    }

    @Test("a hit test that empties the tree as it runs: the walk goes on over the subviews it started with")
    func treeEmptiedDuringHitTest() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "root")
        weak var back: View?
        weak var emptier: EmptyingView?
        var backAliveDuringTest: Bool?
        do {
            let backView = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "back")
            let emptierView = EmptyingView(
                frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "emptier")
            root.addSubview(backView)
            root.addSubview(emptierView)
            back = backView
            emptier = emptierView
        }
        // From here on only the tree holds the two subviews.
        emptier?.afterEmptying = { backAliveDuringTest = back != nil }
        let hit = root.hitTest(Point(x: 50, y: 50))
        #expect(root.subviews.isEmpty)
        // The root's walk still holds the subviews it started with: `back`, removed from the
        // tree by then, is still alive, is tried next, and answers.
        #expect(backAliveDuringTest == true)
        #expect(hit?.label == "back")
        #expect(hit?.superview == nil)
        // …and lets them go when it ends.
        #expect(emptier == nil)
        #expect(back != nil)  // held by `hit`
    }

    @Test("a tap outside the window sends no event")
    func tapOutsideEverything() async {
        let scene = UIFixtures.Scene()
        let delivery = await scene.window.tap(at: Point(x: 500, y: 10))
        #expect(delivery == nil)
        #expect(scene.recorder.labels.isEmpty)
        #expect(await scene.delegate.seen.isEmpty)
    }
}

/// A view whose hit test removes every subview of its superview, itself included, then lets the
/// hit through itself (so the walk above it goes on to the next sibling).
@MainActor
private final class EmptyingView: View {
    var afterEmptying: (() -> Void)?

    override func hitTest(_ point: Point) -> View? {
        for view in superview?.subviews ?? [] { view.removeFromSuperview() }
        afterEmptying?()
        let hit = super.hitTest(point)
        return hit === self ? nil : hit
    }
}
