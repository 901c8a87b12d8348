import Foundation

/// Where the repository and this target's sources are, found from this file's path at build time.
enum SnippetPaths {
    /// `Tests/DocSnippetTests/`.
    static let target = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support/
        .deletingLastPathComponent()

    /// The repository's root, where README.md is.
    static let repository = target.deletingLastPathComponent().deletingLastPathComponent()
}

/// What went wrong while reading the documents or the regions.
struct SnippetError: Error, CustomStringConvertible {
    let description: String
}

/// A ```swift fenced block of a Markdown document.
struct MarkdownBlock {
    /// The 1-based line of its opening fence.
    let line: Int
    /// Its lines, without the fences; lines of only spaces are empty.
    let lines: [String]

    /// The Swift blocks of `document` (a path relative to the repository), in order. Blocks in
    /// other languages (```sh, ``` with no language) are skipped, and so is everything inside
    /// them.
    static func swiftBlocks(in document: String) throws -> [MarkdownBlock] {
        let url = SnippetPaths.repository.appendingPathComponent(document)
        let text = try String(contentsOf: url, encoding: .utf8)
        var blocks: [MarkdownBlock] = []
        /// The fence being read: its line, indentation, backtick count, language and lines.
        var open: (line: Int, indent: Int, ticks: Int, language: String, lines: [String])?

        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            let ticks = rest.prefix { $0 == "`" }.count
            if var fence = open {
                let closes =
                    ticks >= fence.ticks && rest.dropFirst(ticks).allSatisfy { $0 == " " } && indent < 4
                if closes {
                    if fence.language == "swift" {
                        blocks.append(MarkdownBlock(line: fence.line, lines: fence.lines))
                    }
                    open = nil
                } else {
                    // Content is indented relative to its fence: drop up to the fence's indentation.
                    let content = line.dropFirst(min(indent, fence.indent))
                    fence.lines.append(content.allSatisfy { $0 == " " } ? "" : String(content))
                    open = fence
                }
            } else if ticks >= 3 && indent < 4 {
                let info = rest.dropFirst(ticks).trimmingCharacters(in: .whitespaces)
                let language = info.split(separator: " ").first.map(String.init) ?? ""
                open = (index + 1, indent, ticks, language, [])
            }
        }
        if let fence = open {
            throw SnippetError(description: "\(document): the block at line \(fence.line) is never closed")
        }
        return blocks
    }
}

/// A region of this target's sources that holds one documentation block, verbatim:
///
///     // snippet: Docs/Guide.md 3
///     enum OrderID: InfoKey { typealias Value = Int }
///     // end snippet
///
/// The markers stand alone on their lines. A region's lines may be indented (inside a function
/// when the block holds statements, inside a namespace when its types would clash with another
/// block's); the indentation they share is removed before the comparison.
struct SnippetRegion {
    /// The document the region copies, relative to the repository.
    let document: String
    /// Which Swift block of the document it copies, from 1.
    let number: Int
    /// The source file (relative to the target) and the line of the opening marker.
    let place: String
    /// The region's lines, without the indentation they share; lines of only spaces are empty.
    let lines: [String]

    static let startMarker = "// snippet: "
    static let endMarker = "// end snippet"

    /// Folders, besides this target, whose sources hold regions: code that needs packages the
    /// root may not depend on is compiled by a nested package, and checked here all the same.
    static let otherFolders = ["Integrations/ExampleService/Sources"]

    /// Every region of the target's Swift sources and of ``otherFolders``, folder by folder and
    /// file by file (in path order), in order.
    static func all() throws -> [SnippetRegion] {
        var found = try all(under: SnippetPaths.target)
        for folder in otherFolders {
            found += try all(
                under: SnippetPaths.repository.appendingPathComponent(folder), prefix: folder + "/")
        }
        return found
    }

    /// The regions of the Swift sources under `folder`; places are named relative to it, after
    /// `prefix`.
    private static func all(under folder: URL, prefix: String = "") throws -> [SnippetRegion] {
        let root = folder.standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else {
            throw SnippetError(description: "cannot list \(root.path)")
        }
        let files = walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let relative = files.map { String($0.standardizedFileURL.path.dropFirst(root.path.count + 1)) }
        var found: [SnippetRegion] = []
        for (file, name) in zip(files, relative).sorted(by: { $0.1 < $1.1 }) {
            found += try regions(in: try String(contentsOf: file, encoding: .utf8), file: prefix + name)
        }
        return found
    }

    /// The regions of one source file.
    static func regions(in text: String, file: String) throws -> [SnippetRegion] {
        var regions: [SnippetRegion] = []
        var open: (document: String, number: Int, line: Int, lines: [Substring])?

        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let place = "\(file):\(index + 1)"
            if trimmed.hasPrefix(startMarker) {
                if let open {
                    throw SnippetError(
                        description: "\(place): a region starts inside the one from line \(open.line)")
                }
                let words = trimmed.dropFirst(startMarker.count).split(separator: " ")
                guard words.count == 2, let number = Int(words[1]) else {
                    throw SnippetError(
                        description:
                            "\(place): write the marker as \"\(startMarker)<document> <block number>\"")
                }
                open = (String(words[0]), number, index + 1, [])
            } else if trimmed == endMarker {
                guard let region = open else {
                    throw SnippetError(description: "\(place): \"\(endMarker)\" with no region open")
                }
                regions.append(
                    SnippetRegion(
                        document: region.document, number: region.number, place: "\(file):\(region.line)",
                        lines: dedented(region.lines)))
                open = nil
            } else if open != nil {
                open?.lines.append(line)
            }
        }
        if let open {
            throw SnippetError(
                description: "\(file):\(open.line): the region is never ended (\"\(endMarker)\")")
        }
        return regions
    }

    /// `lines` without the leading spaces all non-blank lines share; blank lines become empty.
    static func dedented(_ lines: [Substring]) -> [String] {
        let blank = { (line: Substring) in line.allSatisfy { $0 == " " || $0 == "\t" } }
        let shared = lines.filter { !blank($0) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { blank($0) ? "" : String($0.dropFirst(shared)) }
    }
}
