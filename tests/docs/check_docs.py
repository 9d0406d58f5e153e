"""Checks of the project's Markdown documents that need nothing built:

* the README is a front page: at most ``README_MAX_LINES`` lines;
* every relative link and picture of the README, ``docs/*.md`` and the other pages names
  a file of the repository, and a ``#fragment`` into a Markdown file names one of its
  headings;
* every ``libcarcassonne.so.N`` the documents name is the shared library's SONAME, whose
  number is ``CARC_ABI_VERSION`` of ``include/carcassonne.h``;
* the C excerpt of the README's quick start is part of the first program of ``docs/c.md``
  (which ``tests/c/run.sh`` compiles and runs): each of its lines is a line of it.

Prints one line per problem and ``docs check: N documents, M links`` at the end.

Usage: python3 tests/docs/check_docs.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 300
DOCUMENTS = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    ROOT / "python" / "README.md",
    ROOT / "bindings" / "csharp" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SONAME = re.compile(r"libcarcassonne\.so\.(\d+)")


def slug(heading: str) -> str:
    """The fragment that GitHub gives a heading."""
    text = heading.strip().lower()
    text = re.sub(r"[`*_]", "", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def fragments(doc: Path, cache: Dict[Path, Set[str]]) -> Set[str]:
    if doc not in cache:
        found: Set[str] = set()
        fenced = False
        for line in doc.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and line.startswith("#"):
                found.add(slug(line.lstrip("#")))
        cache[doc] = found
    return cache[doc]


def outside_code(text: str) -> str:
    """The text of a Markdown document without its fenced blocks and inline code."""
    kept: List[str] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            kept.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(kept)


def blocks(doc: Path, lang: str) -> List[List[str]]:
    out: List[List[str]] = []
    current: List[str] = []
    inside = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if not inside and line.strip() == f"```{lang}":
            inside, current = True, []
        elif inside and line.strip() == "```":
            inside = False
            out.append(current)
        elif inside:
            current.append(line)
    return out


def main() -> int:
    problems: List[str] = []
    links = 0
    cache: Dict[Path, Set[str]] = {}

    readme_lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    if readme_lines > README_MAX_LINES:
        problems.append(
            f"README.md: {readme_lines} lines, more than {README_MAX_LINES}: move material to docs/"
        )

    header = (ROOT / "include" / "carcassonne.h").read_text(encoding="utf-8")
    abi = re.search(r"#define CARC_ABI_VERSION (\d+)", header)
    if abi is None:
        problems.append("include/carcassonne.h: no CARC_ABI_VERSION")

    for doc in DOCUMENTS:
        name = doc.relative_to(ROOT)
        text = doc.read_text(encoding="utf-8")
        for target in LINK.findall(outside_code(text)):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            links += 1
            path, _, fragment = target.partition("#")
            linked = (doc.parent / path).resolve() if path else doc
            if not linked.exists():
                problems.append(f"{name}: the link {target} names no file")
                continue
            if fragment and linked.suffix == ".md" and fragment not in fragments(linked, cache):
                problems.append(f"{name}: the link {target} names no heading of {path or name}")
        if abi is not None and doc.name != "CHANGELOG.md":
            for number in SONAME.findall(text):
                if number != abi.group(1):
                    problems.append(
                        f"{name}: names libcarcassonne.so.{number}; the SONAME is "
                        f"libcarcassonne.so.{abi.group(1)} (CARC_ABI_VERSION)"
                    )

    excerpt = blocks(ROOT / "README.md", "c")
    program = blocks(ROOT / "docs" / "c.md", "c")
    if not excerpt or not program:
        problems.append("README.md or docs/c.md: no c block")
    else:
        lines = {line.strip() for line in program[0]}
        for line in excerpt[0]:
            if line.strip() and line.strip() not in lines:
                problems.append(f"README.md: the C excerpt's line {line.strip()!r} is not in docs/c.md's first program")

    for problem in problems:
        print(f"!! {problem}")
    print(f"docs check: {len(DOCUMENTS)} documents, {links} links, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
