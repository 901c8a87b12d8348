import ResponderUI
import Testing

@Suite("Geometry and coordinate conversion")
@MainActor
struct GeometryTests {
    @Test(
        "containment is half-open: left and top inside, right and bottom outside",
        arguments: [
            (Point(x: 0, y: 0), true), (Point(x: 9.999, y: 9.999), true),
            (Point(x: 10, y: 5), false), (Point(x: 5, y: 10), false), (Point(x: -0.001, y: 5), false),
        ])
    func halfOpen(point: Point, inside: Bool) {
        #expect(Rect(x: 0, y: 0, width: 10, height: 10).contains(point) == inside)
    }

    @Test("negative insets enlarge, positive insets shrink")
    func insets() {
        let rect = Rect(x: 0, y: 0, width: 20, height: 20)
        #expect(rect.inset(by: EdgeInsets(all: -10)) == Rect(x: -10, y: -10, width: 40, height: 40))
        #expect(
            rect.inset(by: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
                == Rect(x: 2, y: 1, width: 14, height: 16))
        #expect(Rect(x: 0, y: 0, width: 0, height: 5).isEmpty)
        #expect(!Rect(x: 0, y: 0, width: 0, height: 5).contains(.zero))
    }

    @Test("points convert through nested views, including a scrolled bounds origin")
    func conversion() {
        let root = View(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "root")
        let scroller = View(frame: Rect(x: 10, y: 20, width: 100, height: 100), label: "scroller")
        scroller.boundsOrigin = Point(x: 0, y: 100)
        let row = View(frame: Rect(x: 5, y: 150, width: 50, height: 20), label: "row")
        let other = View(frame: Rect(x: 200, y: 200, width: 50, height: 50), label: "other")
        root.addSubview(scroller)
        scroller.addSubview(row)
        root.addSubview(other)

        // (1, 1) in row → (6, 151) in scroller → (16, 71) in root.
        #expect(row.convert(Point(x: 1, y: 1), to: scroller) == Point(x: 6, y: 151))
        #expect(row.convert(Point(x: 1, y: 1), to: nil) == Point(x: 16, y: 71))
        #expect(row.convert(Point(x: 1, y: 1), to: root) == Point(x: 16, y: 71))
        #expect(row.convert(Point(x: 16, y: 71), from: nil) == Point(x: 1, y: 1))
        #expect(row.convert(Point(x: 1, y: 1), to: other) == Point(x: -184, y: -129))
        #expect(other.convert(Point(x: -184, y: -129), to: row) == Point(x: 1, y: 1))
        #expect(
            row.convert(Rect(x: 0, y: 0, width: 5, height: 5), to: nil)
                == Rect(x: 15, y: 70, width: 5, height: 5))
        // Hit testing agrees with conversion.
        #expect(root.hitTest(Point(x: 16, y: 71)) === row)
        // Scrolling further moves the row up out of the point.
        scroller.boundsOrigin = Point(x: 0, y: 130)
        #expect(root.hitTest(Point(x: 16, y: 71)) === scroller)
    }

    @Test("a pointer's location converts into a view's coordinates")
    func pointerLocation() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 30, y: 40, width: 10, height: 10))
        root.addSubview(child)
        let event = PointerEvent(phase: .began, location: Point(x: 35, y: 42))
        #expect(event.location(in: child) == Point(x: 5, y: 2))
    }
}
