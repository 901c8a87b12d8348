import ResponderChain
import ResponderChainTesting
import Testing

/// What the store suites post and send.
struct PlaceOrder: Event {}

/// What the store suites' pricing step throws.
enum PricingError: Error, Equatable {
    case outOfStock
}

/// The texts of the issues a block records, each as its comments joined.
final class IssueLog: Sendable {
    private let texts = Locked<[String]>([])

    /// Keeps `issue`'s text; always matches, so that every issue of the block is a known one.
    func keep(_ issue: Issue) -> Bool {
        let text = issue.comments.map(\.rawValue).joined(separator: " ")
        texts.withLock { $0.append(text) }
        return true
    }

    var recorded: [String] { texts.withLock { $0 } }
}

/// Whether `text` matches `pattern`, where each `*` in the pattern stands for any text.
func matches(_ text: String, pattern: String) -> Bool {
    let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
    guard parts.count > 1 else { return text == pattern }
    guard text.hasPrefix(parts.first!), text.hasSuffix(parts.last!) else { return false }
    var rest = text.dropFirst(parts.first!.count)
    for part in parts.dropFirst().dropLast() where !part.isEmpty {
        while !rest.isEmpty, !rest.hasPrefix(part) { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return false }
        rest = rest.dropFirst(part.count)
    }
    return rest.count >= parts.last!.count
}

/// Whether the recorded issue texts are exactly the expected patterns, in any order, each once.
func issues(_ recorded: [String], match patterns: [String]) -> Bool {
    guard recorded.count == patterns.count else { return false }
    var left = recorded
    for pattern in patterns {
        guard let index = left.firstIndex(where: { matches($0, pattern: pattern) }) else { return false }
        left.remove(at: index)
    }
    return true
}
