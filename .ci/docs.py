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
    args = parser.parse_args()
    {"assemble": assemble, "check-curation": check_curation, "check-site-links": check_site_links}[args.command](args)


if __name__ == "__main__":
    main()
