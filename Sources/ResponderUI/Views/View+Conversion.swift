extension View {
    /// Converts `point` from this view's coordinates to `view`'s (to the window's, or the tree's
    /// root's, when `view` is `nil`). Frames and scrolled bounds origins along both paths count.
    ///
    /// ```swift
    /// let inCell = button.convert(Point(x: 5, y: 5), to: cell)
    /// let inWindow = button.convert(.zero, to: nil)
    /// ```
    public func convert(_ point: Point, to view: View?) -> Point {
        let root = toRootCoordinates(point)
        guard let view else { return root }
        return view.fromRootCoordinates(root)
    }

    /// Converts `point` from `view`'s coordinates (the window's, or the root's, when `view` is
    /// `nil`) to this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        let root = view.map { $0.toRootCoordinates(point) } ?? point
        return fromRootCoordinates(root)
    }

    /// Converts `rect` from this view's coordinates to `view`'s (see ``convert(_:to:)-(Point,_)``).
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        Rect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    /// Converts `rect` from `view`'s coordinates to this view's.
    public func convert(_ rect: Rect, from view: View?) -> Rect {
        Rect(origin: convert(rect.origin, from: view), size: rect.size)
    }

    private func toRootCoordinates(_ point: Point) -> Point {
        var point = point
        var view = self
        while let superview = view.superview {
            point = point - view.boundsOrigin + view.frame.origin
            view = superview
        }
        return point
    }

    private func fromRootCoordinates(_ point: Point) -> Point {
        guard let superview else { return point }
        return superview.fromRootCoordinates(point) - frame.origin + boundsOrigin
    }
}

extension PointerEvent {
    /// The pointer's location in `view`'s coordinates.
    @MainActor
    public func location(in view: View) -> Point {
        view.convert(location, from: nil)
    }
}
