"""Checks the Unity package layout of the C# binding (bindings/csharp).

* package.json: a valid Unity package name, the workspace version of Cargo.toml, a
  minimum Unity version, the crates' licence;
* Runtime/ holds the binding and an assembly definition named Carcassonne without
  UnityEngine references; Plugins/ explains where the native libraries go;
* every file and folder Unity imports has a .meta file, every .meta file has its asset,
  and their GUIDs are unique 32-digit hex numbers (an immutable package, added from a Git
  URL, is only imported with its .meta files);
* LICENSE.md carries the repository's LICENSE-MIT and LICENSE-APACHE verbatim.

Usage: python3 tests/csharp/check_package.py     (run by tests/c/run.sh)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bindings" / "csharp"
failures: list[str] = []
passed = 0


def check(ok: bool, what: str) -> None:
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)


def workspace_version() -> str:
    text = (ROOT / "Cargo.toml").read_text()
    section = re.search(r"^\[workspace\.package\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    assert section, "Cargo.toml has no [workspace.package]"
    version = re.search(r'^version\s*=\s*"([^"]+)"', section.group(1), re.M)
    assert version, "[workspace.package] has no version"
    return version.group(1)


def unity_imports(path: Path) -> bool:
    """Whether Unity imports this path: hidden names and names ending in ~ are skipped."""
    rel = path.relative_to(PACKAGE)
    return not any(p.startswith(".") or p.endswith("~") for p in rel.parts)


def main() -> int:
    manifest = json.loads((PACKAGE / "package.json").read_text())
    name = manifest.get("name", "")
    check(
        re.fullmatch(r"com(\.[a-z0-9][a-z0-9_-]*)+", name) is not None and len(name) <= 214,
        f"package.json name {name!r} is a lowercase reverse-domain name starting with com.",
    )
    check(
        manifest.get("version") == workspace_version(),
        f"package.json version {manifest.get('version')!r} equals Cargo.toml's "
        f"{workspace_version()!r}",
    )
    check(
        re.fullmatch(r"\d{4}\.\d", manifest.get("unity", "")) is not None,
        "package.json has a minimum Unity version like 2021.3",
    )
    check(manifest.get("license") == "MIT OR Apache-2.0", "package.json license is MIT OR Apache-2.0")
    for key in ("displayName", "description"):
        check(bool(manifest.get(key)), f"package.json has a {key}")

    asmdef = json.loads((PACKAGE / "Runtime" / "Carcassonne.asmdef").read_text())
    check(asmdef.get("name") == "Carcassonne", "the assembly definition is named Carcassonne")
    check(asmdef.get("noEngineReferences") is True, "the assembly does not reference UnityEngine")
    check((PACKAGE / "Runtime" / "Carcassonne.cs").is_file(), "Runtime/Carcassonne.cs exists")
    plugins = (PACKAGE / "Plugins" / "README.md").read_text()
    for lib in ("libcarcassonne.so", "carcassonne.dll", "libcarcassonne.dylib"):
        check(lib in plugins, f"Plugins/README.md says where {lib} goes")
    stray = sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.cs")
        if unity_imports(p) and p.parent != PACKAGE / "Runtime"
    )
    check(not stray, f"every C# file Unity compiles is under Runtime/ (its asmdef): {stray}")

    guids: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*")):
        if not unity_imports(path):
            continue
        if path.suffix == ".meta":
            asset = path.with_suffix("")
            check(asset.exists(), f"{path.relative_to(PACKAGE)} has its asset")
            match = re.search(r"^guid: ([0-9a-f]{32})$", path.read_text(), re.M)
            check(match is not None, f"{path.relative_to(PACKAGE)} has a 32-digit hex guid")
            if match:
                other = guids.setdefault(match.group(1), path)
                check(other == path, f"{path.relative_to(PACKAGE)} and {other} share a guid")
            check(
                ("folderAsset: yes" in path.read_text()) == asset.is_dir(),
                f"{path.relative_to(PACKAGE)}: folderAsset matches whether it is a folder",
            )
        else:
            meta = path.with_name(path.name + ".meta")
            check(meta.is_file(), f"{path.relative_to(PACKAGE)} has a .meta file")

    licence = (PACKAGE / "LICENSE.md").read_text()
    for text in ("LICENSE-MIT", "LICENSE-APACHE"):
        check((ROOT / text).read_text() in licence, f"LICENSE.md contains {text} verbatim")

    for failure in failures:
        print(f"mismatch: {failure}", file=sys.stderr)
    print(f"unity package: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
