/// Which lane of its office a post waits in: its sender's (or relay's), or its ordering key's
/// (``EventSystem/OrderingKey``).
///
/// Nine bytes: every ticket holds one, so a key's name is boxed rather than inline.
enum LaneKey: Hashable, Sendable {
    /// The lane of the posts a responder or relay sends without a key.
    case sender(ObjectIdentifier)
    /// The lane of the posts with this ordering key.
    case key(Name)

    /// An ordering key's name, in a box of its own; equal when the names are.
    final class Name: Hashable, Sendable {
        let name: String

        init(_ name: String) {
            self.name = name
        }

        static func == (lhs: Name, rhs: Name) -> Bool { lhs.name == rhs.name }

        func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// The lane of the posts with the key called `name`.
    static func key(_ name: String) -> LaneKey { .key(Name(name)) }
}
