#!/usr/bin/env python3
"""Regenerates every file the project derives from a declaration, or checks that each is
current.

    python3 tools/generate.py            # rewrite what is out of date (make generate)
    python3 tools/generate.py --check    # rewrite nothing; exit 1 naming what is out of
                                         # date (make generate-check, part of make test)

The generators, in the order they run (a later one may read what an earlier one wrote):

| writes | from | by |
|---|---|---|
| core/data/tiles.txt | the catalogue tests/data/tiles.json | tools/gen_tile_table.py |
| include/carcassonne.h, ffi/src/engine_types.rs | the engine's name tables, the C library's source | the test `tests::header` of carcassonne-ffi |
| bindings/csharp/Runtime/Carcassonne.cs (its generated regions) | the C header | tools/gen_csharp.py |
| docs/observations.md (its generated tables) | the observation schema | the program gen-observation-docs |
| docs/expansion-state.md (its generated tables) | the expansions' state tables | the test expansion_state of the rules crate |
| python/carcassonne/_actions.py | the action schema | python/tools/gen_actions.py |
| python/carcassonne/_state.py | the expansions' state tables | python/tools/gen_state.py |

Each step runs in write mode; with --check the files are put back as they were afterwards,
so a check never leaves the tree changed. It needs cargo and Python 3, not the Python
package: the Python generators read the schemas the program front-end-schemas prints.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
CARGO = os.environ.get("CARGO", "cargo")


class Step(NamedTuple):
    """One generator: what it writes (paths from the root) and how it is run."""

    name: str
    writes: List[str]
    run: Callable[[], None]


def command(*args: str, env: Dict[str, str] | None = None, stdout=None) -> None:
    """Runs a command at the root; its failure stops the whole run."""
    result = subprocess.run(args, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=stdout)
    if result.returncode != 0:
        raise SystemExit(f"generate: `{' '.join(args)}` failed (exit {result.returncode})")


def tile_table() -> None:
    with open(ROOT / "core" / "data" / "tiles.txt", "w") as out:
        command(sys.executable, "tools/gen_tile_table.py", "tests/data/tiles.json", stdout=out)


def load(path: str):
    """A generator script as a module (the Python generators are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(Path(path).stem, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def python_modules() -> None:
    printed = subprocess.run(
        [CARGO, "run", "-q", "-p", "carcassonne-session", "--bin", "front-end-schemas"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    if printed.returncode != 0:
        raise SystemExit("generate: the program front-end-schemas failed")
    schemas = json.loads(printed.stdout)
    for script, key in [("python/tools/gen_actions.py", "actions"), ("python/tools/gen_state.py", "state")]:
        generator = load(script)
        generator.TARGET.write_text(generator.render(schemas[key]))


STEPS = [
    Step("tile table", ["core/data/tiles.txt"], tile_table),
    Step(
        "C header and mirrored enums",
        ["include/carcassonne.h", "ffi/src/engine_types.rs"],
        lambda: command(CARGO, "test", "-q", "-p", "carcassonne-ffi", "--lib", "tests::header",
                        env={"CARC_BLESS_HEADER": "1"}),
    ),
    Step(
        "C# binding",
        ["bindings/csharp/Runtime/Carcassonne.cs"],
        lambda: command(sys.executable, "tools/gen_csharp.py"),
    ),
    Step(
        "observation tables",
        ["docs/observations.md"],
        lambda: command(CARGO, "run", "-q", "-p", "carcassonne-session", "--bin", "gen-observation-docs"),
    ),
    Step(
        "expansion state tables",
        ["docs/expansion-state.md"],
        lambda: command(CARGO, "test", "-q", "-p", "carcassonne", "--test", "expansion_state",
                        "the_documentation_lists_every_table", env={"CARC_BLESS_DOCS": "1"}),
    ),
    Step(
        "Python action classes and state types",
        ["python/carcassonne/_actions.py", "python/carcassonne/_state.py"],
        python_modules,
    ),
]


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file is out of date")
    args = parser.parse_args(argv)
    before = {path: (ROOT / path).read_bytes() for step in STEPS for path in step.writes}
    try:
        for step in STEPS:
            print(f"== generate: {step.name}", flush=True)
            step.run()
    finally:
        changed = [path for path, text in before.items() if (ROOT / path).read_bytes() != text]
        if args.check:
            for path in changed:
                (ROOT / path).write_bytes(before[path])
    if not changed:
        print("generate: every generated file is current")
        return 0
    if args.check:
        print("generate: out of date (run `make generate`): " + ", ".join(changed), file=sys.stderr)
        return 1
    print("generate: rewrote " + ", ".join(changed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
