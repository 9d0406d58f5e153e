"""The installed distribution declares what the documentation promises."""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _requirements_of(extra: str) -> set[str]:
    """Distribution names required by ``extra`` (from the installed metadata)."""
    names = set()
    for req in metadata.requires("carcassonne") or []:
        if re.search(rf"""extra\s*==\s*["']{re.escape(extra)}["']""", req):
            names.add(re.split(r"[\s<>=!~;\[]", req, maxsplit=1)[0].lower())
    return names


def test_documented_extras_bring_their_packages() -> None:
    extras = set(metadata.metadata("carcassonne").get_all("Provides-Extra") or [])
    assert {"gym", "pettingzoo", "notebook", "all", "rl"} <= extras, extras
    assert _requirements_of("gym") == {"gymnasium"}
    assert {"pettingzoo", "gymnasium"} <= _requirements_of("pettingzoo")
    assert {"gymnasium", "pettingzoo", "matplotlib"} <= _requirements_of("all")
    assert "sb3-contrib" in _requirements_of("rl")
    # Heavy packages stay out of the default install.
    default = [r for r in metadata.requires("carcassonne") or [] if "extra" not in r]
    assert [re.split(r"[\s<>=]", r, maxsplit=1)[0] for r in default] == ["numpy"]


def test_python_version_matches_the_readme() -> None:
    required = metadata.metadata("carcassonne")["Requires-Python"]
    match = re.fullmatch(r">=\s*3\.(\d+)", required.strip())
    assert match, required
    minor = int(match.group(1))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Python 3.{minor}+" in readme
    assert sys.version_info >= (3, minor)


def test_every_documented_extra_exists() -> None:
    declared = set(metadata.metadata("carcassonne").get_all("Provides-Extra") or [])
    docs = [ROOT / "README.md", ROOT / "python" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    mentioned = set()
    for doc in docs:
        for group in re.findall(r"\./python\[([a-z0-9_,-]+)\]", doc.read_text(encoding="utf-8")):
            mentioned.update(group.split(","))
    assert mentioned, "the READMEs name the extras to install"
    assert mentioned <= declared, mentioned - declared
