import ResponderUI
import Testing

/// A round view: only points within its inscribed circle are inside.
@MainActor
private final class RoundView: View {
    override func point(inside point: Point) -> Bool {
        let radius = bounds.width / 2
        let dx = point.x - (bounds.minX + radius)
        let dy = point.y - (bounds.minY + radius)
        return dx * dx + dy * dy < radius * radius
    }
}

@Suite("The view tree")
@MainActor
struct ViewTreeTests {
    @Test("views, controllers, windows and applications print as their labels, the names traces use")
    func printsAsLabel() {
        let row = View(label: "row")
        #expect("\(row)" == "row")
        #expect(String(describing: RoundView()) == "RoundView")  // no label: the type's name
        #expect("\(Window(frame: .zero, label: "main"))" == "main")
        #expect("\(ViewController(label: "cart"))" == "cart")
        #expect("\([row])" == "[row]")
    }

    @Test("add, insert, reorder and remove keep the subviews in order")
    func ordering() {
        let root = View(label: "root")
        let a = View(label: "a")
        let b = View(label: "b")
        let c = View(label: "c")
        root.addSubview(a)
        root.addSubview(b)
        root.insertSubview(c, at: 1)
        #expect(root.subviews.map(\.label) == ["a", "c", "b"])
        root.bringSubviewToFront(a)
        #expect(root.subviews.map(\.label) == ["c", "b", "a"])
        root.sendSubviewToBack(a)
        #expect(root.subviews.map(\.label) == ["a", "c", "b"])
        root.insertSubview(a, at: 99)
        #expect(root.subviews.map(\.label) == ["c", "b", "a"])
        b.removeFromSuperview()
        #expect(root.subviews.map(\.label) == ["c", "a"])
        #expect(b.superview == nil)
        c.addSubview(a)
        #expect(root.subviews.map(\.label) == ["c"])
        #expect(a.superview === c)
        #expect(a.isDescendant(of: root))
        #expect(!root.isDescendant(of: a))
    }

    @Test("a view knows its window through its ancestors, and loses it when removed")
    func windowMembership() {
        let scene = UIFixtures.Scene()
        let cell = View()
        let label = View()
        scene.controller.view.addSubview(cell)
        cell.addSubview(label)
        #expect(label.window === scene.window)
        #expect(scene.controller.window === scene.window)
        #expect(scene.window.window === scene.window)
        cell.removeFromSuperview()
        #expect(label.window == nil)
        #expect(label.next === cell)
        #expect(cell.next == nil)
    }

    @Test("a view can override point(inside:) for a non-rectangular shape")
    func roundView() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "root")
        let round = RoundView(frame: Rect(x: 0, y: 0, width: 40, height: 40), label: "round")
        root.addSubview(round)
        #expect(root.hitTest(Point(x: 20, y: 20)) === round)
        #expect(root.hitTest(Point(x: 2, y: 2)) === root)  // a corner of the frame, outside the circle
    }
}
