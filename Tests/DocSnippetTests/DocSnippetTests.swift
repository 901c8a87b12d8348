import Testing

/// The documents whose Swift blocks this target compiles, relative to the repository.
private let documents = ["README.md", "Docs/Guide.md", "Docs/Testing.md"]

/// Every ```swift block of README.md, Docs/Guide.md and Docs/Testing.md is compiled in this target, verbatim: the
/// other files hold each one as a region between a `snippet: <document> <n>` marker line and an
/// `end snippet` line (see `SnippetRegion`). This suite reads the documents and the regions at
/// test time and fails when a block and its region differ, when a block has no region, or when a
/// region has no block, so the documentation's code cannot drift from what compiles.
@Suite("Documentation snippets")
struct DocSnippetTests {
    @Test("each Swift block of the document equals its compiled region, in order", arguments: documents)
    func blocksMatchRegions(document: String) throws {
        let blocks = try MarkdownBlock.swiftBlocks(in: document)
        let regions = try SnippetRegion.all().filter { $0.document == document }

        let byNumber = Dictionary(grouping: regions, by: \.number)
        for (number, copies) in byNumber.sorted(by: { $0.key < $1.key }) where copies.count > 1 {
            Issue.record(
                "\(document): block \(number) has \(copies.count) regions (\(copies.map(\.place).joined(separator: ", "))); keep one"
            )
        }

        for (index, block) in blocks.enumerated() {
            let number = index + 1
            guard let region = byNumber[number]?.first else {
                Issue.record(
                    """
                    \(document): Swift block \(number) (line \(block.line)) has no region; copy it into \
                    Tests/DocSnippetTests between "// snippet: \(document) \(number)" and "// end snippet"
                    """)
                continue
            }
            if let difference = firstDifference(block.lines, region.lines) {
                Issue.record(
                    """
                    \(document): Swift block \(number) (line \(block.line)) differs from its region \
                    (\(region.place)) at line \(difference.line) of the block:
                      document: \(difference.document ?? "<block ends>")
                      region:   \(difference.region ?? "<region ends>")
                    """)
            }
        }

        for region in regions where region.number < 1 || region.number > blocks.count {
            Issue.record(
                """
                \(document): region \(region.number) (\(region.place)) has no block: the document has \
                \(blocks.count) Swift blocks; remove the region or renumber it
                """)
        }
    }

    @Test("every region names a checked document")
    func regionsNameCheckedDocuments() throws {
        let regions = try SnippetRegion.all()
        #expect(!regions.isEmpty)
        for region in regions where !documents.contains(region.document) {
            Issue.record(
                "region \(region.place) names \"\(region.document)\", which is not one of \(documents)")
        }
    }

    /// The first line (1-based) where `document` and `region` differ, with each side's text
    /// there (`nil` past its end); `nil` when they are equal.
    private func firstDifference(_ document: [String], _ region: [String])
        -> (line: Int, document: String?, region: String?)?
    {
        for index in 0..<max(document.count, region.count) {
            let left = index < document.count ? document[index] : nil
            let right = index < region.count ? region[index] : nil
            if left != right { return (index + 1, left, right) }
        }
        return nil
    }
}
