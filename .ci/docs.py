#!/usr/bin/env python3
"""Helpers for .ci/build-docs (standard library only).

  docs.py assemble --catalog SRC.docc --out OUT.docc --module M --docs Docs \
                   --host Module:Article [--host ...]
      Copies the checked-in catalog SRC.docc to OUT.docc and adds the articles `--host`
      assigns to module M, taken from Docs/ (the one source of truth), with the images they
      show. Docs/*.md are plain GitHub Markdown; their links are rewritten for DocC:
        [t](Semantics.md)          -> [t](doc:Semantics)            (article in this catalog)
        [t](Semantics.md#a-b)      -> [t](doc:Semantics#A-b)        (heading fragment, checked)
        [t](#a-b)                  -> [t](doc:Tracing#A-b)          (same article)
        [t](WindowLayer.md)        -> [t](/documentation/responderui/windowlayer)
                                      (article of another module: a site-absolute URL, which
                                      DocC cannot check; it resolves in the combined site
                                      .ci/build-docs writes, served from its root)
        [t](benchmarks.json)       -> `Docs/benchmarks.json`        (not part of the docs site)
      Images (![alt](x.svg)) stay as they are; the file is copied into the catalog.

  docs.py check-site-links --catalogs DIR --site SITE.doccarchive
      Fails unless every site-absolute link (`](/documentation/...)`) in the assembled catalogs
      names a page of the combined site (DocC checks every other link itself).

  docs.py check-curation --module M --catalog SRC.docc --graphs DIR
      Fails, listing every missing symbol, unless each public top-level symbol of M (types,
      protocols, functions, globals, and extensions of other modules' types) is placed in a
      `## Topics` group of the catalog, and unless, for each type that has an extension file
      with its own `## Topics`, every member the module declares on it is placed there too.
"""

import argparse
import json
import os
import re
import shutil
import sys

LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def github_slug(heading):
    """The anchor GitHub gives a heading."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def docc_fragment(heading):
    """The fragment DocC gives a heading: its text with runs of spaces joined by '-'."""
    text = heading.strip().replace("`", "")
    return "-".join(text.split())


def headings(path):
    """Every heading of a Markdown file, outside code blocks."""
    found, fenced = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m and not fenced:
                found.append(m.group(1))
    return found


def assemble(args):
    hosts = {}  # article name -> module
    for spec in args.host:
        module, article = spec.split(":", 1)
        hosts[article] = module
    mine = sorted(a for a, m in hosts.items() if m == args.module)

    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    shutil.copytree(args.catalog, args.out, symlinks=False)

    def fragment_for(article, anchor, where):
        for heading in headings(os.path.join(args.docs, article + ".md")):
            if github_slug(heading) == anchor:
                return docc_fragment(heading)
        sys.exit(f"error: {where}: no heading of {article}.md has the anchor #{anchor}")

    problems = []
    for article in mine:
        source = os.path.join(args.docs, article + ".md")
        out_lines, fenced = [], False
        with open(source, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for number, line in enumerate(lines, 1):
            if FENCE.match(line):
                fenced = not fenced
            if fenced or FENCE.match(line):
                out_lines.append(line)
                continue
            where = f"Docs/{article}.md:{number}"

            def rewrite(m):
                bang, text, target = m.groups()
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:, doc:
                    return m.group(0)
                path, _, anchor = target.partition("#")
                if bang:  # an image: DocC finds it by file name in the catalog
                    image = os.path.join(args.docs, path)
                    if not os.path.isfile(image):
                        problems.append(f"{where}: image {path} is not in Docs/")
                    else:
                        shutil.copy(image, os.path.join(args.out, os.path.basename(path)))
                    return m.group(0)
                name = path[:-3] if path.endswith(".md") else None
                if path == "":  # a heading of this article
                    return f"[{text}](doc:{article}#{fragment_for(article, anchor, where)})"
                if name is not None and name in hosts:
                    suffix = f"#{fragment_for(name, anchor, where)}" if anchor else ""
                    if hosts[name] == args.module:
                        return f"[{text}](doc:{name}{suffix})"
                    # An article of another module's catalog: DocC cannot check this link; it
                    # resolves in the combined site, where each module is a sibling folder. (Not
                    # relative: a static server may add a trailing slash to the page's URL.)
                    url = f"/documentation/{hosts[name].lower()}/{name.lower()}"
                    return f"[{text}]({url}{suffix})"
                if name is not None:
                    problems.append(f"{where}: link to {path}, which no catalog hosts")
                    return m.group(0)
                if os.path.isfile(os.path.join(args.docs, path)):
                    return f"`Docs/{path}`"  # a data file: name it, the site cannot serve it
                problems.append(f"{where}: relative link to {target}, which DocC cannot resolve")
                return m.group(0)

            out_lines.append(LINK.sub(rewrite, line))
        with open(os.path.join(args.out, article + ".md"), "w", encoding="utf-8") as f:
            f.write("\n".join(out_lines))
    if problems:
        print("\n".join("error: " + p for p in problems), file=sys.stderr)
        sys.exit(1)


def check_site_links(args):
    broken = []
    for root, _, files in os.walk(args.catalogs):
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    for url in re.findall(r"\]\((/documentation/[^)#\s]*)(?:#[^)\s]*)?\)", line):
                        page = os.path.join(args.site, url.strip("/"), "index.html")
                        if not os.path.isfile(page):
                            broken.append(f"{path}:{number}: {url} is not a page of {args.site}")
    if broken:
        print("error: broken links between modules:", file=sys.stderr)
        print("\n".join("  " + b for b in broken), file=sys.stderr)
        sys.exit(1)
    print("every link between modules names a page of the combined site")


# --- curation -------------------------------------------------------------------------------

SYMBOL_LINK = re.compile(r"``([^`]+)``")


def strip_disambiguation(link):
    """`Module/Type/member(_:)-3abc` -> ["Module", "Type", "member(_:)"]."""
    parts = []
    for part in link.split("/"):
        # A disambiguation suffix: -hash, -swift.kind, or -(Type)->Type signatures.
        m = re.match(r"^(.+?\)|[^-(]+(?:\([^)]*\))?)(-.*)?$", part)
        parts.append(m.group(1) if m else part)
    return parts


def catalog_pages(catalog):
    """(page path, [curated links]) for each symbol page (landing page, extension file)."""
    pages = []
    for root, _, files in os.walk(catalog):
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            with open(os.path.join(root, name), encoding="utf-8") as f:
                text = f.read()
            title = re.match(r"^#\s+``([^`]+)``", text)
            if not title:
                continue  # an article: its Topics place nothing this check requires
            links, in_topics, fenced = [], False, False
            for line in text.split("\n"):
                if FENCE.match(line):
                    fenced = not fenced
                if fenced:
                    continue
                if re.match(r"^##\s", line):
                    in_topics = line.strip() == "## Topics"
                elif in_topics and re.match(r"^\s*[-*]\s", line):
                    links += SYMBOL_LINK.findall(line)
            pages.append((strip_disambiguation(title.group(1)), links, os.path.join(root, name)))
    return pages


def check_curation(args):
    module = args.module
    graphs = [f for f in os.listdir(args.graphs) if f.endswith(".symbols.json")]
    symbols = []  # (path tuple, kind, location, extended module or None)
    for name in sorted(graphs):
        extended = name[len(module) + 1 : -len(".symbols.json")] if "@" in name else None
        with open(os.path.join(args.graphs, name), encoding="utf-8") as f:
            graph = json.load(f)
        for s in graph["symbols"]:
            if "::SYNTHESIZED::" in s["identifier"]["precise"]:
                continue  # inherited defaults: DocC groups them under the type by itself
            loc = s.get("location", {})
            uri = os.path.relpath(loc.get("uri", "?").replace("file://", ""))
            where = f'{uri}:{loc.get("position", {}).get("line", -1) + 1}'
            symbols.append((tuple(s["pathComponents"]), s["kind"]["identifier"], where, extended))

    curated = set()  # full paths, without the module: ("Outcome",), ("View", "frame")
    extension_pages = set()
    for title, links, _ in catalog_pages(args.catalog):
        base = title[1:] if title[0] == module else title
        if base:
            extension_pages.add(tuple(base))
        for link in links:
            parts = strip_disambiguation(link)
            if parts[0] == module and len(parts) > 1:
                parts = parts[1:]
            # A link resolves relative to the page first, then from the module.
            curated.add(tuple(base + parts))
            curated.add(tuple(parts))

    missing = []
    for path, kind, where, extended in symbols:
        if extended:
            # An extension of another module's type: placed by linking the extended type as
            # ``Other/Type`` (or the extended module ``Other``).
            if kind == "swift.extension" and not (
                (extended, *path) in curated or (extended,) in curated
            ):
                missing.append(f"``{extended}/{'/'.join(path)}`` ({kind}, {where})")
            continue
        if len(path) == 1 and path not in curated:
            missing.append(f"``{path[0]}`` ({kind}, {where})")
        elif len(path) > 1 and path[:-1] in extension_pages and path not in curated:
            missing.append(f"``{'/'.join(path)}`` ({kind}, {where}): its type has an extension "
                           f"file with Topics, so each member must be placed there")
    if missing:
        print(f"error: {module}: {len(missing)} public symbol(s) not placed in a topic group of "
              f"{args.catalog}:", file=sys.stderr)
        for line in sorted(set(missing)):
            print(f"  {line}", file=sys.stderr)
        sys.exit(1)
    print(f"{module}: every public top-level symbol is placed in a topic group")


# --- code blocks ----------------------------------------------------------------------------

# Names the code blocks may use that no Swift source of the repository declares: the standard
# library, Foundation, Synchronization, Swift Testing and the server packages the integrations
# depend on. Keep it short: a name belongs here only when a block uses it.
KNOWN_TYPES = set("""
    Any AnyObject Array AsyncStream Atomic Bool Character ContinuousClock Date Dictionary Double
    Duration Error Float Int Int64 Never Optional Result Self Sendable Set String Task TaskGroup
    UInt UInt64 UnownedSerialExecutor Void Actor MainActor TaskLocal CancellationError Mutex
    CustomStringConvertible Equatable Hashable Identifiable Codable Decodable Encodable Comparable Data URL
    JSONDecoder JSONEncoder Issue Test Suite
    Logger LoggingSystem StreamLogHandler MetricsSystem MetricsFactory Service ServiceGroup
    ClosureService ServiceContext InstrumentationSystem Tracing Logging Synchronization Foundation
    Testing NotificationCenter Instant Metadata MetadataProvider AsyncSequence
""".split())
KNOWN_MEMBERS = set("""
    self init count isEmpty first last append map flatMap compactMap filter contains reduce
    sorted joined split description value load store wrappingAdd oldValue relaxed seconds
    milliseconds microseconds nanoseconds now zero run withValue withLock debug info notice
    warning error critical trace logLevel metadata sigterm sigint standardOutput internal
    topLevel attributes isRecording withSpan current tracer factory shared cancel isCancelled
    ipv6 defaults some none min max keys values assumeIsolated
""".split())
KNOWN_LABELS = set("""
    label metadata metadataProvider ordering services gracefulShutdownSignals logger context
    ofKind separator by where within isolation count pairs
""".split())
# Single lowercase words the README and the Guide put in code font that are no names of this
# repository: Swift keywords and functions, UIKit's names they compare with, tools.
PROSE_WORDS = set("""
    await async isolated nonisolated main print nextResponder docc swift DocSnippetTests
""".split())
# The documents whose single `word`s in code font must exist too: written for newcomers, their
# code-font words are API names (elsewhere they may be metrics, C symbols, tools).
STRICT_PROSE = ("README.md", os.path.join("Docs", "Guide.md"))
DECLARATION = re.compile(
    r"\b(?:struct|class|enum|actor|protocol|typealias|associatedtype|func|var|let|case|"
    r"extension)\s+([A-Za-z_]\w*)")
STRING = re.compile(r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"')
COMMENT = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/")
TRIVIAL = re.compile(r"^[\s{}()\[\],;]*$")
COMPILED_MARK = re.compile(r"^<!--\s*compiled:\s*(\S+)\s*-->\s*$")
ASSUMES_MARK = re.compile(r"^<!--\s*assumes:\s*([\w\s]+?)\s*-->\s*$")
FILE_NAME = re.compile(r"\.(swift|md|sh|so|json|proto|py|txt|yml|yaml|svg)$")
REGION = re.compile(r"^\s*// snippet: (\S+) (\d+)\s*$")


def swift_code(text):
    """`text` without its comments and string literals (their contents are no API names)."""
    text = STRING.sub('""', text)
    return COMMENT.sub("", text)


def parameter_labels(code):
    """The argument labels the declarations in `code` accept (a parameter's first name)."""
    labels = set()
    for m in re.finditer(r"\b(?:func\s+[^\s(<]+|init[?!]?|subscript|case\s+\w+)\s*(?:<[^>{}]*>)?\s*\(", code):
        depth, i, start = 1, m.end(), m.end()
        while i < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            i += 1
        params, depth, current = [], 0, ""
        for ch in code[start:i - 1]:
            if ch in "([<":
                depth += 1
            elif ch in ")]>":
                depth -= 1
            if ch == "," and depth == 0:
                params.append(current)
                current = ""
            else:
                current += ch
        params.append(current)
        for p in params:
            first = re.match(r"\s*(?:@\w+\s+)*([A-Za-z_]\w*)", p)
            if first:
                labels.add(first.group(1))
    return labels


def declared_names(code):
    """Names `code` declares: types, members, cases (each of a list), labels, generic parameters."""
    names = set(DECLARATION.findall(code))
    for m in re.finditer(r"\bcase\s+([^\n:=]*)", code):  # case a, b(c: Int), d
        names.update(re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)", m.group(1)))
    names.update(re.findall(r"<\s*([A-Z]\w*)", code))
    names.update(re.findall(r"\b([a-z_]\w*)\s*(?=[,)]|\s+in\b)", code))  # closure parameters
    names |= parameter_labels(code)
    return names


def repository_names(root, folders_skipped=("Tests",)):
    """Every name the library modules of the repository declare (the folders under each
    package's `Sources/`, the root's, the integrations' and the benchmarks'), and the modules'
    own names. Tests, test fixtures and executables (a module with a `main.swift` or an `@main`
    type: the demos, the benchmark harness) do not count: what they declare is no API a reader
    can call."""
    names = set()
    for base, dirs, _ in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in folders_skipped]
        if os.path.basename(base) not in ("Sources", "Tests"):
            continue
        for module in dirs:
            texts = []
            for inner, _, files in os.walk(os.path.join(base, module)):
                for name in files:
                    if name.endswith(".swift"):
                        with open(os.path.join(inner, name), encoding="utf-8") as f:
                            texts.append((name, swift_code(f.read())))
            if any(name == "main.swift" or re.search(r"^\s*@main\b", text, re.M) for name, text in texts):
                continue
            names.add(module)
            for _, text in texts:
                names |= declared_names(text)
        dirs[:] = []
    return names


def fenced_blocks(lines):
    """(line of the opening fence, language, lines) of each fenced block, and the line above."""
    blocks, open_ = [], None
    for number, line in enumerate(lines, 1):
        indent = len(line) - len(line.lstrip(" "))
        rest = line[indent:]
        fence = re.match(r"^(`{3,}|~{3,})(.*)$", rest)
        if open_ is not None:
            if fence and fence.group(1)[0] == open_[2][0] and len(fence.group(1)) >= len(open_[2]) \
                    and not fence.group(2).strip():
                blocks.append((open_[0], open_[1], open_[3], open_[4]))
                open_ = None
            else:
                open_[3].append(line)
        elif fence and indent < 4:
            above = next((l for l in reversed(lines[:number - 1]) if l.strip()), "")
            open_ = [number, (fence.group(2).strip().split() or [""])[0], fence.group(1), [], above]
    return blocks


def normalized(line):
    return " ".join(line.split())


def regions_of(root):
    """{(document, number): [lines]} of the `// snippet: <document> <n>` regions (DocSnippetTests)."""
    found = {}
    folders = [os.path.join(root, "Tests", "DocSnippetTests"),
               os.path.join(root, "Integrations", "ExampleService", "Sources")]
    for folder in folders:
        for base, _, files in os.walk(folder):
            for name in files:
                if not name.endswith(".swift"):
                    continue
                current = None
                with open(os.path.join(base, name), encoding="utf-8") as f:
                    for line in f:
                        m = REGION.match(line)
                        if m:
                            current = (m.group(1), int(m.group(2)))
                            found[current] = []
                        elif line.strip() == "// end snippet":
                            current = None
                        elif current:
                            found[current].append(line.rstrip("\n"))
    return found


def is_subsequence(needles, haystack):
    it = iter(haystack)
    return all(any(n == h for h in it) for n in needles)


def used_names(code):
    """(kind, name) of each name `code` uses that should exist: capitalised type names,
    `.member`s (and key-path members) and argument labels."""
    used = set()
    for m in re.finditer(r"(?<![\w.$])([A-Z]\w*)", code):
        used.add(("type", m.group(1)))
    for m in re.finditer(r"(?<![\d\s])\.([A-Za-z_]\w*)|(?<=\\)\.([A-Za-z_]\w*)", code):
        used.add(("member", m.group(1) or m.group(2)))
    for m in re.finditer(r"[(,]\s*([a-z_]\w*)\s*:(?!:)", code):
        used.add(("label", m.group(1)))
    return used


def inline_spans(line, strict):
    """Inline code spans of a Markdown line that name an API path: `Type.member` (a capitalised
    first name; file names are not paths) or `$0.member`; with `strict`, also a single word
    (`use`, `releaseSenderLane()`)."""
    for span in re.findall(r"(?<!`)`([^`\n]+)`(?!`)", line):
        m = re.match(r"^(\$0\.)?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\([\w:, ]*\))?$", span)
        if not m or FILE_NAME.search(span):
            continue
        if m.group(1) or ("." in m.group(2) and m.group(2)[0].isupper()):
            yield span, m.group(2).split(".")
        elif strict and "." not in m.group(2) and m.group(2) not in PROSE_WORDS:
            yield span, [m.group(2)]


def check_code_blocks(args):
    root = args.root
    allowed = KNOWN_TYPES | KNOWN_MEMBERS | KNOWN_LABELS
    known = repository_names(root) | allowed
    # Prose may also name a test (`Suite.testFunction`), whose suites cite the rules.
    known_in_prose = repository_names(root, folders_skipped=("DocSnippetTests",)) | allowed
    regions = regions_of(root)
    problems, compiled, checked = [], 0, 0
    documents = ["README.md"] + sorted(
        os.path.join("Docs", n) for n in os.listdir(os.path.join(root, "Docs")) if n.endswith(".md"))
    texts = {}
    declared_in_documents = set()  # the documents grow one example: a block may use another's types
    for document in documents:
        with open(os.path.join(root, document), encoding="utf-8") as f:
            texts[document] = f.read().split("\n")
        for _, language, body, _ in fenced_blocks(texts[document]):
            if language == "swift":
                declared_in_documents |= declared_names(swift_code("\n".join(body)))
    for document in documents:
        lines = texts[document]
        blocks = fenced_blocks(lines)
        swift = [b for b in blocks if b[1] == "swift"]
        declared_in_document = declared_in_documents
        for index, (line, _, body, above) in enumerate(swift, 1):
            where = f"{document}:{line}"
            content = [normalized(l) for l in body if not TRIVIAL.match(l)]
            mark = COMPILED_MARK.match(above.strip())
            region = regions.get((document, index))
            if region is not None:
                if content != [normalized(l) for l in region if not TRIVIAL.match(l)]:
                    problems.append(f"{where}: Swift block {index} differs from its region "
                                    f"(// snippet: {document} {index}) in Tests/DocSnippetTests")
                compiled += 1
                continue
            if mark:
                path = os.path.join(root, mark.group(1))
                if not os.path.isfile(path):
                    problems.append(f"{where}: marked compiled in {mark.group(1)}, which does not exist")
                    continue
                with open(path, encoding="utf-8") as f:
                    source = [normalized(l) for l in f.read().split("\n")]
                missing = [l for l in content if l not in source and not l.startswith("import ")]
                if missing or not is_subsequence(
                        [l for l in content if not l.startswith("import ")], source):
                    shown = missing[0] if missing else "(the lines are there, in another order)"
                    problems.append(f"{where}: marked compiled in {mark.group(1)}, but its lines "
                                    f"are not all there, in order: {shown}")
                compiled += 1
                continue
            checked += 1
            code = swift_code("\n".join(body))
            mine = declared_names(code) | declared_in_document
            assumes = ASSUMES_MARK.match(above.strip())
            if assumes:
                mine |= set(assumes.group(1).split())
            for kind, name in sorted(used_names(code)):
                if name not in known and name not in mine:
                    problems.append(f"{where}: {kind} `{name}` is declared nowhere in the "
                                    f"repository's library sources (nor in a block of the docs)")
        if document.endswith("Migration.md"):
            continue  # it names the old APIs on purpose
        fenced = {n for (start, _, body, _) in blocks for n in range(start, start + len(body) + 2)}
        for number, text in enumerate(lines, 1):
            if number in fenced:
                continue
            for span, parts in inline_spans(text, document in STRICT_PROSE):
                for name in parts:
                    if name not in known_in_prose and name not in declared_in_document:
                        problems.append(f"{document}:{number}: `{span}` names `{name}`, which is "
                                        f"declared nowhere in the repository's Swift sources")
    if problems:
        print(f"error: {len(problems)} code block problem(s) in README.md and Docs/:", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        sys.exit(1)
    print(f"code blocks: {compiled} compiled (their copies match), {checked} checked for names "
          f"that exist; inline API names exist")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("assemble")
    a.add_argument("--catalog", required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--module", required=True)
    a.add_argument("--docs", required=True)
    a.add_argument("--host", action="append", default=[])
    c = sub.add_parser("check-curation")
    c.add_argument("--module", required=True)
    c.add_argument("--catalog", required=True)
    c.add_argument("--graphs", required=True)
    s = sub.add_parser("check-site-links")
    s.add_argument("--catalogs", required=True)
    s.add_argument("--site", required=True)
    b = sub.add_parser("check-code-blocks")
    b.add_argument("--root", default=".")
    args = parser.parse_args()
    {"assemble": assemble, "check-curation": check_curation, "check-site-links": check_site_links,
     "check-code-blocks": check_code_blocks}[args.command](args)


if __name__ == "__main__":
    main()
