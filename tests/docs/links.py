#!/usr/bin/python3
"""tests/docs/links.py [FILE.md ...] -- every relative link in the
project's Markdown resolves: the file or directory it names exists, and
an anchor (#...) names a heading of that file, as GitHub makes anchors
from headings.  Links to other sites are not fetched (this machine has
no network); they are counted.  With no arguments: README.md and
doc/*.md.  Prints each broken link with its file and line, and exits 1
if there is any."""
import os
import re
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    """The anchors GitHub gives the headings of a Markdown file."""
    out, seen, fence = set(), {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
                continue
            m = None if fence else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            text = re.sub(r"[`*_]", "", m.group(2)).strip().lower()
            slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else "%s-%d" % (slug, n))
    return out


def check(md):
    bad, external, local = [], 0, 0
    base = os.path.dirname(md)
    fence = False
    with open(md, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if line.startswith("```"):
                fence = not fence
                continue
            if fence:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    external += 1
                    continue
                local += 1
                path, _, frag = target.partition("#")
                dest = os.path.normpath(os.path.join(base, path)) if path else md
                name = os.path.relpath(md, TOP)
                if not os.path.exists(dest):
                    bad.append("%s:%d: %s: no such file" % (name, no, target))
                elif frag and dest.endswith(".md") and frag not in anchors(dest):
                    bad.append("%s:%d: %s: no heading makes that anchor"
                               % (name, no, target))
    return bad, external, local


def main(argv):
    files = argv or [os.path.join(TOP, "README.md")] + sorted(
        os.path.join(TOP, "doc", f) for f in os.listdir(os.path.join(TOP, "doc"))
        if f.endswith(".md"))
    bad, ext, loc = [], 0, 0
    for md in files:
        b, e, l = check(md)
        bad += b
        ext += e
        loc += l
    for b in bad:
        print(b)
    print("links: %d files, %d relative links checked, %d broken, %d to "
          "other sites (not fetched)" % (len(files), loc, len(bad), ext))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
