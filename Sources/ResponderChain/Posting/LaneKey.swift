/// Which lane of its office a post waits in: its sender's (or relay's), or its ordering key's
/// (``EventSystem/OrderingKey``).
enum LaneKey: Hashable, Sendable {
    /// The lane of the posts a responder or relay sends without a key.
    case sender(ObjectIdentifier)
    /// The lane of the posts with this ordering key.
    case key(String)
}
