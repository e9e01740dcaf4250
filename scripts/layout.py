#!/usr/bin/env python3
"""Writes the README's layout section from the tree: every Swift module under Sources/ (not the
C library wrappers), in the order
Package.swift declares them, with its folders (and theirs, in braces); the modules without
folders on one line.

    scripts/layout.py           rewrite the section between the layout markers of README.md
    scripts/layout.py --check   exit 1 if the section differs from the tree (the test runs this)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- layout: begin -->", "<!-- layout: end -->"


def folders(path):
    return sorted(name for name in os.listdir(path)
                  if not name.startswith(".") and os.path.isdir(os.path.join(path, name)))


def describe(path):
    parts = []
    for name in folders(path):
        inner = folders(os.path.join(path, name))
        parts.append(f"{name}/{{{','.join(inner)}}}" if inner else f"{name}/")
    return " ".join(parts)


def modules():
    """(name, path) of every target under Sources, in Package.swift's order."""
    package = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    found = []
    for match in re.finditer(r'\.(?:target|executableTarget)\(name: "([^"]+)"(.*?)\)(?:,|\n)', package):
        name, rest = match.group(1), match.group(2)
        path = re.search(r'path: "([^"]+)"', rest)
        path = path.group(1) if path else f"Sources/{name}"
        if path.startswith("Sources/") and os.path.isdir(os.path.join(ROOT, path)):
            found.append((name, path))
    return found


def section():
    """A row per module with folders; the modules without folders on the last line."""
    rows, plain = [], []
    for _, path in modules():
        inner = describe(os.path.join(ROOT, path))
        name = path[len("Sources/"):] + "/"
        if inner:
            rows.append((name, inner))
        else:
            plain.append(name)
    width = max(len(name) for name, _ in rows) + 2
    lines = [f"{name.ljust(width)}{inner}" for name, inner in rows]
    lines.append("and " + " ".join(plain))
    return "```text\n" + "\n".join(lines) + "\n```"


def main():
    readme_path = os.path.join(ROOT, "README.md")
    readme = open(readme_path, encoding="utf-8").read()
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        sys.exit(f"README.md has no '{BEGIN}' … '{END}' section")
    updated = readme[:start + len(BEGIN)] + "\n" + section() + "\n" + readme[end:]
    if "--check" in sys.argv[1:]:
        if updated != readme:
            sys.exit("README.md's layout section differs from the tree: run scripts/layout.py")
        return
    with open(readme_path, "w", encoding="utf-8") as out:
        out.write(updated)


if __name__ == "__main__":
    main()
